// How a watch ends (lib/etcd/watch.ts reports it, lib/live re-reads, lib/metrics counts
// it by reason). Here, on the ground floor, so lib/metrics need not import lib/etcd.
export const WATCH_BREAK_REASONS = ["compacted", "disconnected", "cancelled"] as const;

export interface WatchBreak {
  reason: (typeof WATCH_BREAK_REASONS)[number];
  detail: string;
}
