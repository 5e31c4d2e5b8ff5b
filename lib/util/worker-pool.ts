// The one worker pool: `run` over a list with at most `concurrency` calls in flight, each
// worker taking the next item as it finishes one, so items start in list order.

/**
 * `run(item, index)` for every item, at most `concurrency` (at least 1) at once, answers
 * in item order. The first failure rejects the whole, and no item starts after it (a
 * guarded write lost to another leader writes no more chunks).
 */
export async function mapPooled<T, R>(
  items: readonly T[],
  concurrency: number,
  run: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        out[i] = await run(items[i], i);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  const workers = Math.min(Math.max(1, Math.floor(concurrency)), items.length);
  await Promise.all(Array.from({ length: workers }, worker));
  return out;
}
