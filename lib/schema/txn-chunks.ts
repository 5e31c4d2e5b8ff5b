// Chunked writes (scheduler-model.md §8.2): greedy in input order; a new chunk starts when
// the current one is non-empty and holds 100 ops, or the op would push it past 768 KiB.
// An op larger than the budget goes alone. Every chunk is one txn (guarded by the caller).
import { utf8ByteLength } from "./parse";

const MAX_OPS_PER_TXN = 100;
const MAX_TXN_BYTES = 786_432;
const OP_OVERHEAD_BYTES = 32;

export type WriteOp = { type: "put"; key: string; value: string } | { type: "delete"; key: string };

const size = (s: string | Uint8Array): number => (typeof s === "string" ? utf8ByteLength(s) : s.byteLength);

/** put = key + value + 32; delete = key + 32 (bytes). */
function opCost(op: { key: string | Uint8Array; value?: string | Uint8Array }): number {
  return size(op.key) + (op.value === undefined ? 0 : size(op.value)) + OP_OVERHEAD_BYTES;
}

export function chunkOps<T extends { key: string | Uint8Array; value?: string | Uint8Array }>(
  ops: readonly T[],
  limits: { maxOps?: number; maxBytes?: number } = {},
): T[][] {
  const maxOps = limits.maxOps ?? MAX_OPS_PER_TXN;
  const maxBytes = limits.maxBytes ?? MAX_TXN_BYTES;
  const chunks: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const op of ops) {
    const cost = opCost(op);
    if (current.length > 0 && (current.length >= maxOps || bytes + cost > maxBytes)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(op);
    bytes += cost;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
