// The etcd this test file shares with the other files of its worker (./global-etcd.ts starts
// one per worker; VITEST_POOL_ID numbers a project's workers from 1).
import { inject } from "vitest";

export function sharedEtcd(): string {
  const all = inject("etcdEndpointsByWorker");
  const worker = Math.max(1, Number(process.env.VITEST_POOL_ID) || 1);
  return all[(worker - 1) % all.length];
}
