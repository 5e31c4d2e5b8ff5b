// Shared by the foundation integration tests: a client on the suite's etcd and a reader
// over a fresh prefix.
import { inject } from "vitest";
import type { Etcd3 } from "etcd3";
import { createEtcdClient } from "@/lib/etcd/client";
import { foldEvents } from "@/lib/planner/fold-events";
import { createFleetReader, type FleetRead } from "@/lib/snapshot/read";

export function suiteClient(): Etcd3 {
  return createEtcdClient({ endpoints: inject("etcdEndpoints").split(","), callTimeoutMs: 30_000 });
}

export function readerFor(client: Etcd3, prefix: string) {
  return createFleetReader({ client, prefix });
}

/** The planner fold (§3.6) of a read's raw `demand-events/` kvs. */
export function foldRead(read: FleetRead, prefix: string, now = 1_000) {
  const kvs = (read.kvsByFamily.get("demand-events") ?? []).map((kv) => ({ key: kv.key, value: kv.value.toString("utf8"), modRevision: kv.modRevision }));
  return foldEvents(kvs, prefix, now);
}
