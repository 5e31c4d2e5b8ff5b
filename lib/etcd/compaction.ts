import "server-only";
// The store's compact revision. etcd's "required revision has been compacted" error does
// not carry it (and 3.4's Status has no such field), but a watch created at a compacted
// start revision is cancelled with `compact_revision` set: ask with a throw-away watch on
// a key nobody writes.
import type { Etcd3, IWatchResponse } from "etcd3";

const PROBE_KEY = Buffer.from("\0console-compact-probe");

/** Compact revision as seen by a watch from `revision` (0 when `revision` is not compacted). */
export async function compactRevisionAt(client: Etcd3, revision: number, timeoutMs = 2000): Promise<number> {
  const stream = await client.watchClient.watch();
  try {
    return await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("compact-revision probe timed out")), timeoutMs);
      stream.on("data", (res: IWatchResponse) => {
        const compact = Number(res.compact_revision || 0);
        // etcd first confirms the watch ("created"), then cancels it with the compact revision
        if (compact > 0 || res.canceled) {
          clearTimeout(timer);
          resolve(compact);
        } else if (res.created) {
          clearTimeout(timer);
          setTimeout(() => resolve(0), 300); // not compacted: no cancellation follows
        }
      });
      stream.on("error", (e: Error) => {
        clearTimeout(timer);
        reject(e);
      });
      stream.write({ create_request: { key: PROBE_KEY, start_revision: revision } });
    });
  } finally {
    stream.on("error", () => undefined); // the cancel below surfaces as a CANCELLED error
    stream.end();
    stream.cancel();
  }
}
