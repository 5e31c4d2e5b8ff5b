import "server-only";
// One value per process: Next may bundle a module into several route chunks, each with its
// own module state, so state every route must share lives on globalThis under a symbol.

export function processWide<T>(name: string, init: () => T): T {
  const g = globalThis as unknown as Record<symbol, T | undefined>;
  return (g[Symbol.for(name)] ??= init());
}
