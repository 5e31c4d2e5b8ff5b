import "server-only";
// When a data answer last said `503 etcd_unavailable` (issue 27: health agrees with the
// data endpoints). Health reads it so it never answers "busy, not down" just after a data
// read found etcd gone; and the live view is doubted, so its next answer asks etcd first
// instead of trusting its watch (a pinned read's 503 and a "live" list never sit side by side).
import { liveCache } from "@/lib/live/cache";

const SEEN = { atMs: 0 };

export function noteEtcdUnavailable(): void {
  SEEN.atMs = Date.now();
  liveCache().doubt();
}

/** When a data answer last found etcd unavailable (0: never). */
export function etcdUnavailableSeenAt(): number {
  return SEEN.atMs;
}
