// vitest globalSetup for the integration project: one real etcd for all files.
// Tests isolate themselves with their own ETCD_PREFIX (see testPrefix in ./prefix.ts).
// Tests that kill or compact etcd start their own with startEtcd().
import type { TestProject } from "vitest/node";
import { startEtcd } from "./etcd";

export default async function setup(project: TestProject) {
  const cluster = await startEtcd();
  project.provide("etcdEndpoints", cluster.endpoints);
  process.env.TEST_ETCD_ENDPOINTS = cluster.endpoints;
  return async () => {
    await cluster.stop();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    etcdEndpoints: string;
  }
}
