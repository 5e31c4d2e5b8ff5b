// A module's value made on first use: the engine is loaded once per process (lib/engine), so a
// module's own state is the process's.

/** The value `init` makes on first call, then the same one (a nullish result is made again next time). */
export function lazily<T>(init: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= init());
}
