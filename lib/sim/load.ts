// Bulk loads: a scenario's kvs in chunked txns (§8.2 limits), leased kvs attached to one
// seed lease, with a progress line for long loads.
import type { EtcdClient as Etcd3 } from "@/lib/etcd/client";
import { grantLease } from "@/lib/etcd/leases";
import { writeChunked, type LeasedWriteOp } from "@/lib/etcd/writes";
import type { SeedKv } from "./seed-kv";

export interface LoadOptions {
  /** TTL of the seed lease for leased kvs (default 24 h, so a seeded fleet outlives the seeder) */
  leaseTtlSec?: number;
  /** progress sink; default: none */
  progress?: (line: string) => void;
  label?: string;
}

export interface LoadResult {
  kvs: number;
  txns: number;
  revision: number;
  leaseId: string | null;
}

export async function loadKvs(client: Etcd3, kvs: Iterable<SeedKv>, opts: LoadOptions = {}): Promise<LoadResult> {
  const list = Array.isArray(kvs) ? (kvs as SeedKv[]) : [...kvs];
  let leaseId: string | null = null;
  if (list.some((kv) => kv.leased)) {
    leaseId = await grantLease(client, opts.leaseTtlSec ?? 86_400);
  }
  const op = (kv: SeedKv): LeasedWriteOp => ({
    type: "put",
    key: kv.key,
    value: kv.value,
    lease: kv.leased ? leaseId! : undefined,
  });
  // the records dated by their own write first, alone: the chunks after them run concurrently
  const dated = list.filter((kv) => kv.dated).map(op);
  const ops = list.filter((kv) => !kv.dated).map(op);
  const first = dated.length > 0 ? await writeChunked(client, dated) : { txns: 0, revision: 0 };
  const label = opts.label ?? "seed";
  const started = Date.now();
  let lastPrint = 0;
  const result = await writeChunked(client, ops, {
    concurrency: 4,
    onChunk: (done, total) => {
      const now = Date.now();
      if (opts.progress && (now - lastPrint > 500 || done === total) && total > 20) {
        lastPrint = now;
        opts.progress(
          `${label}: ${done}/${total} txns (${Math.round((done / total) * 100)}%, ${((now - started) / 1000).toFixed(1)} s)`,
        );
      }
    },
  });
  return {
    kvs: list.length,
    txns: first.txns + result.txns,
    revision: Math.max(first.revision, result.revision),
    leaseId,
  };
}
