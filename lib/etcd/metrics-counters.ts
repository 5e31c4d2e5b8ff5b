import "server-only";
// Plain process-wide counters of the etcd read path; lib/process/metrics.ts reads them.
export interface ReadCounters {
  /** range requests that returned a page */
  pages: number;
  /** §8.1 page shrinks (over budget or message-size errors) */
  shrinks: number;
  /** Σ key + value bytes received */
  bytes: number;
  /** kvs received */
  keys: number;
  /** complete fleet snapshots read from etcd */
  fullReads: number;
}

export const readCounters: ReadCounters = { pages: 0, shrinks: 0, bytes: 0, keys: 0, fullReads: 0 };
