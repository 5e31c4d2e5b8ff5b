import "server-only";
// A preview's `digest` (console-api.md "Policy edits an admin can trust", third version "stale
// means material", fourth version "Portable previews"): the effect it binds (sha256 of the
// decision sets, lib/planner/plan/preview.ts `previewEffect`) and the moment it reviewed, the
// etcd revision and `now_ms`, so that any replica can re-plan that reviewed fleet from etcd.
// The format is the console's own and opaque to clients: base64url of one version byte, the
// revision and `now_ms` (8 bytes each, big-endian) and the 32-byte effect hash.
import { createHash } from "node:crypto";

const VERSION = 1;
const BYTES = 1 + 8 + 8 + 32;

export interface PreviewDigest {
  /** the etcd revision the preview was evaluated on */
  revision: number;
  /** the moment it was evaluated at */
  nowMs: number;
  /** sha256 (hex) of the effect's decision sets */
  effect: string;
}

export const effectHash = (effect: string) => createHash("sha256").update(effect, "utf8").digest("hex");

export function encodeDigest(d: PreviewDigest): string {
  const out = Buffer.alloc(BYTES);
  out.writeUInt8(VERSION, 0);
  out.writeBigUInt64BE(BigInt(d.revision), 1);
  out.writeBigInt64BE(BigInt(d.nowMs), 9);
  Buffer.from(d.effect, "hex").copy(out, 17);
  return out.toString("base64url");
}

/** The digest's parts, or null for one no preview of this version made. */
export function decodeDigest(digest: string): PreviewDigest | null {
  const bytes = Buffer.from(digest, "base64url");
  if (bytes.length !== BYTES || bytes.readUInt8(0) !== VERSION || bytes.toString("base64url") !== digest) return null;
  const revision = bytes.readBigUInt64BE(1);
  const nowMs = bytes.readBigInt64BE(9);
  if (
    revision < 1n ||
    revision > BigInt(Number.MAX_SAFE_INTEGER) ||
    nowMs < 0n ||
    nowMs > BigInt(Number.MAX_SAFE_INTEGER)
  )
    return null;
  return { revision: Number(revision), nowMs: Number(nowMs), effect: bytes.subarray(17).toString("hex") };
}
