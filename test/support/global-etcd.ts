// vitest globalSetup for the integration projects: one real etcd per worker of the project.
// A worker runs its files one at a time against its own etcd, so a file still sees only its
// own writes (several tests predict the next revision), while two workers share the CPUs.
// Tests isolate themselves further with their own ETCD_PREFIX (see testPrefix in ./prefix.ts).
// Tests that kill or compact etcd start their own with startEtcd().
import type { TestProject } from "vitest/node";
import { startEtcd } from "./etcd";

export default async function setup(project: TestProject) {
  const workers = Math.max(1, Number(project.config.maxWorkers) || 1);
  const clusters = await Promise.all(Array.from({ length: workers }, () => startEtcd()));
  project.provide(
    "etcdEndpointsByWorker",
    clusters.map((c) => c.endpoints),
  );
  return async () => {
    await Promise.all(clusters.map((c) => c.stop()));
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    etcdEndpointsByWorker: string[];
  }
}
