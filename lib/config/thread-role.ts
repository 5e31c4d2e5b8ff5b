// Which thread of the console's process this module runs in. The offload worker
// (lib/offload/worker.ts, started by lib/live/offload-pool.ts) answers the requests that read
// or plan the fleet at another moment than the live one, off the thread that answers the
// rest; it keeps no live view and no process-wide metrics of its own.
import { isMainThread, workerData } from "node:worker_threads";

/** What the pool tells its worker (`workerData`). */
export interface OffloadWorkerData {
  role: "offload";
}

/** True inside the offload worker. */
export function inOffloadWorker(): boolean {
  return !isMainThread && (workerData as Partial<OffloadWorkerData> | null)?.role === "offload";
}
