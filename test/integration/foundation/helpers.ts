// Shared by the foundation integration tests: a client on the suite's etcd and a reader
// over a fresh prefix.
import type { Etcd3 } from "etcd3";
import { sharedEtcd } from "../../support/shared-etcd";
import { createRawEtcdClient } from "@/lib/etcd/raw";
import { createFleetReader, type FleetRead } from "@/lib/snapshot/read";

export function suiteClient(): Etcd3 {
  return createRawEtcdClient({ endpoints: sharedEtcd().split(","), callTimeoutMs: 30_000 });
}

export function readerFor(client: Etcd3, prefix: string) {
  return createFleetReader({ client, prefix });
}

/** The production fold (§3.6) of a read: its folded tables and the `demand-events/` keys it skipped. */
export function foldRead(read: FleetRead) {
  return { tables: read.tables, skipped: read.snapshot.skipped.filter((s) => s.family === "demand-events") };
}
