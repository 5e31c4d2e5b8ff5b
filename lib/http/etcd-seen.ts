import "server-only";
// When a data answer last said `503 etcd_unavailable` (issue 27: health agrees with the
// data endpoints). Health reads it so it never answers "busy, not down" just after a data
// read found etcd gone.

const SEEN = { atMs: 0 };

export function noteEtcdUnavailable(): void {
  SEEN.atMs = Date.now();
}

/** When a data answer last found etcd unavailable (0: never). */
export function etcdUnavailableSeenAt(): number {
  return SEEN.atMs;
}
