// `instanceof` that holds across Next's route bundles. Each bundle can carry its own copy
// of a module, so an error made by a process-wide object (the revision clock, the live
// cache, built by whichever bundle came first) is not an instance of another bundle's copy
// of its class: a 404 thrown there was answered as a 500 here. A branded class is an
// instance by a process-wide symbol (`Symbol.for`) instead of by the class's identity.

/**
 * Brands `cls` (a class with no subclasses) as `name`: its instances carry the brand, and
 * `instanceof cls` is true of any value carrying it, whichever copy of the module made it.
 */
export function crossBundle<C extends abstract new (...args: never[]) => object>(name: string, cls: C): C {
  const brand = Symbol.for(`scheduler-console.class.${name}`);
  Object.defineProperty(cls.prototype, brand, { value: true });
  Object.defineProperty(cls, Symbol.hasInstance, {
    value: (v: unknown) => typeof v === "object" && v !== null && (v as Record<symbol, unknown>)[brand] === true,
  });
  return cls;
}
