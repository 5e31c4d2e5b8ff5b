// The audit log (console-api.md `GET /api/v1/audit`): newest first, paged by cursor; a
// pinned revision lists the entries written up to it.
import type { AuditResponse } from "@/lib/schema/api/audit";
import { fetchJson } from "../fetch-json";

export const AUDIT_PAGE = 50;

export const auditKeys = {
  all: ["audit"] as const,
  list: (target: string | null, revision: number | null) => ["audit", target ?? "", revision ?? "live"] as const,
};

export function fetchAudit(params: { target: string | null; cursor: string | null; revision: number | null }, signal?: AbortSignal): Promise<AuditResponse> {
  return fetchJson<AuditResponse>("/api/v1/audit", { target: params.target, cursor: params.cursor, revision: params.revision, limit: AUDIT_PAGE }, signal);
}
