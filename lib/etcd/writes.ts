import "server-only";
import type { EtcdClient } from "./client";
import { raw } from "./raw";
// scheduler-model.md §8.2: chunked guarded writes. Ops are chunked greedily in order
// (≤ 100 ops and ≤ 768 KiB per txn, an oversized op alone, `chunkOps`); every chunk is
// one txn, optionally guarded by `guard` (e.g. `leader-token == own token`).
import { CompareResult, CompareTarget, type IRequestOp } from "etcd3";
import { chunkOps, type WriteOp } from "@/lib/schema/txn-chunks";
import { mapPooled } from "@/lib/util/worker-pool";
import { toEtcdError } from "./errors";

export type { WriteOp };

/** A put may attach a lease (etcd lease id as a decimal string). */
export type LeasedWriteOp = WriteOp & { lease?: string };

export interface ChunkedWriteResult {
  txns: number;
  ops: number;
  /** revision of the last txn (0 when nothing was written) */
  revision: number;
}

export interface ChunkedWriteOptions {
  /** every chunk compares this key's value (e.g. the leader token) */
  guard?: { key: string; value: string };
  /** called after each committed chunk (progress lines) */
  onChunk?: (done: number, total: number) => void;
  /** chunks in flight at once (default 1: in order) */
  concurrency?: number;
}

/** A guarded chunk lost its compare (another leader, a changed token). */
class GuardFailed extends Error {
  readonly code = "guard_failed";
  constructor(key: string) {
    super(`write guard failed: ${key} no longer holds the expected value`);
    this.name = "GuardFailed";
  }
}

function requestOp(op: LeasedWriteOp): IRequestOp {
  const key = Buffer.from(op.key);
  if (op.type === "delete") return { request_delete_range: { key } };
  return { request_put: { key, value: Buffer.from(op.value), lease: op.lease ?? 0 } };
}

export async function writeChunked(
  etcd: EtcdClient,
  ops: readonly LeasedWriteOp[],
  opts: ChunkedWriteOptions = {},
): Promise<ChunkedWriteResult> {
  const client = raw(etcd);
  const chunks = chunkOps(ops);
  const compare = opts.guard
    ? [
        {
          key: Buffer.from(opts.guard.key),
          target: CompareTarget.Value,
          result: CompareResult.Equal,
          value: Buffer.from(opts.guard.value),
        },
      ]
    : [];
  let done = 0;
  let revision = 0;
  await mapPooled(chunks, opts.concurrency ?? 1, async (chunk) => {
    let res;
    try {
      res = await client.kv.txn({ compare, success: chunk.map(requestOp), failure: [] });
    } catch (e) {
      throw toEtcdError(e, "txn");
    }
    if (!res.succeeded) throw new GuardFailed(opts.guard!.key);
    revision = Math.max(revision, Number(res.header.revision));
    done += 1;
    opts.onChunk?.(done, chunks.length);
  });
  return { txns: chunks.length, ops: ops.length, revision };
}
