import "server-only";
// The store's compact revision. etcd's "required revision has been compacted" error does
// not carry it (and 3.4's Status has no such field), but a watch created at a compacted
// start revision is cancelled with `compact_revision` set: ask with a throw-away watch on
// a key nobody writes. The key must lie under the console's prefix: an etcd user whose
// role covers only `P/` may not watch anything else (PERMISSION_DENIED).
import type { IWatchResponse } from "etcd3";
import type { EtcdClient } from "./client";
import { raw } from "./raw";
import { DeadlineExceeded, LOOP_STEP_MS, withDeadline } from "@/lib/util/deadline";

/** Outside any prefix: only for callers that have none (a user limited to `P/` cannot watch it). */
const UNPREFIXED_PROBE_KEY = "\0console-compact-probe";

/**
 * Compact revision as seen by a watch from `revision` (0 when `revision` is not compacted).
 * `probeKey`: a key the client may read that nobody writes, e.g. `compactProbeKey(P)`.
 */
export async function compactRevisionAt(
  etcd: EtcdClient,
  revision: number,
  timeoutMs = 2000,
  probeKey: string = UNPREFIXED_PROBE_KEY,
): Promise<number> {
  const client = raw(etcd);
  const stream = await client.watchClient.watch();
  // both waits count event-loop time (lib/util/deadline.ts): an answer that came while the
  // thread was held is read, not taken for a silent etcd
  const loopTime = { loopStepMs: LOOP_STEP_MS };
  let created!: () => void;
  const confirmed = new Promise<void>((resolve) => (created = resolve));
  const cancelled = new Promise<number>((resolve, reject) => {
    stream.on("data", (res: IWatchResponse) => {
      const compact = Number(res.compact_revision || 0);
      // etcd first confirms the watch ("created"), then cancels it with the compact revision
      if (compact > 0 || res.canceled) resolve(compact);
      else if (res.created) created();
    });
    stream.on("error", (e: Error) => reject(e));
  });
  cancelled.catch(() => undefined);
  stream.write({ create_request: { key: Buffer.from(probeKey), start_revision: revision } });
  try {
    const first = await withDeadline(
      Promise.race([cancelled, confirmed]),
      timeoutMs,
      "compact-revision probe",
      loopTime,
    );
    if (typeof first === "number") return first;
    // created and not cancelled: not compacted, unless the cancellation is right behind
    return await withDeadline(cancelled, 300, "compact-revision probe", loopTime).catch((e: unknown) => {
      if (e instanceof DeadlineExceeded) return 0;
      throw e;
    });
  } finally {
    stream.on("error", () => undefined); // the cancel below surfaces as a CANCELLED error
    stream.end();
    stream.cancel();
  }
}
