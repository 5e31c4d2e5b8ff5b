// The live world's writes applied to a store in memory instead of etcd (the steady-state
// check runs hours of ticks in a test this way): puts and deletes as etcd applies a txn,
// a revision per step, and demand events joined exactly as a publisher's read–join–CAS does
// (§3.5). Leases are not kept: a leased key stays until deleted.
import { joinStoredValue } from "@/lib/planner/join";
import { keys } from "@/lib/schema/keys";
import { buildSnapshot, groupByFamily } from "@/lib/snapshot/build";
import type { FleetSnapshot, SnapshotKv } from "@/lib/snapshot/types";
import type { SimOp } from "./ops";
import type { SeedKv } from "./seed-kv";
import type { Publish } from "./writers";

export class WorldStore {
  private readonly kvs = new Map<string, { value: string; modRevision: number }>();
  revision = 0;

  constructor(
    readonly prefix: string,
    seed: Iterable<SeedKv> = [],
  ) {
    this.apply(
      [...seed].map((kv) => ({ type: "put", key: kv.key, value: kv.value })),
      [],
    );
  }

  /** One step's writes at one new revision. */
  apply(ops: readonly SimOp[], publishes: readonly Publish[]): void {
    const revision = ++this.revision;
    for (const op of ops) {
      if (op.type === "delete") this.kvs.delete(op.key);
      else this.kvs.set(op.key, { value: op.value, modRevision: revision });
    }
    for (const p of publishes) {
      const key = keys.demandEvent(this.prefix, p.target, p.event.shard);
      const joined = joinStoredValue(this.kvs.get(key)?.value ?? null, p.event);
      if (joined.kind === "error") throw new Error(joined.message);
      if (joined.kind === "put") this.kvs.set(key, { value: joined.value, modRevision: revision });
    }
  }

  /** Keys under `P/<dir>` (e.g. `queue/`). */
  count(dir: string): number {
    const start = `${this.prefix}/${dir}`;
    let n = 0;
    for (const key of this.kvs.keys()) if (key.startsWith(start)) n++;
    return n;
  }

  /** The store (or only its `dirs`, e.g. `assignments/`) as one snapshot (the console's parsers), read at `readAtMs`. */
  snapshot(readAtMs: number, dirs?: readonly string[]): FleetSnapshot {
    const starts = dirs?.map((d) => `${this.prefix}/${d}`);
    const kvs: SnapshotKv[] = [];
    for (const [key, kv] of this.kvs)
      if (!starts || starts.some((s) => key.startsWith(s)))
        kvs.push({ key, value: Buffer.from(kv.value), modRevision: kv.modRevision, lease: "0" });
    return buildSnapshot(this.prefix, this.revision, groupByFamily(this.prefix, kvs), { readAtMs });
  }
}
