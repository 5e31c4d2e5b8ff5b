import "server-only";
// GET /api/v1/audit (console-api.md): policy changes newest first, each with its reason;
// pinned to `?revision=R` it lists what had been written up to R.
import { etcdClient, etcdPrefix } from "@/lib/etcd/client";
import { listAudit } from "@/lib/etcd/policy-store";
import type { AuditQuery, AuditResponse } from "@/lib/schema/api/audit";

export async function auditLog(query: AuditQuery): Promise<AuditResponse> {
  const log = await listAudit(etcdClient(), etcdPrefix(), query);
  return { ...log, read_at_ms: Date.now() };
}
