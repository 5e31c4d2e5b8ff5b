import "server-only";
// One value per process: Next may bundle a module into several route chunks, each with its
// own module state, so state every route must share lives on globalThis under a symbol.
// This is the one helper for such slots (lib/etcd's client included, hence its home on the
// ground floor). A brand (./brand.ts) is not a slot: it marks values, it holds none.

/** The process's value named `name` (`scheduler-console.<what>`), made by `init` on first use (a nullish result is not kept). */
export function processWide<T>(name: string, init: () => T): T {
  const g = globalThis as unknown as Record<symbol, T | undefined>;
  return (g[Symbol.for(name)] ??= init());
}
