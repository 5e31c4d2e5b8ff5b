// The audit log (console-api.md `GET /api/v1/audit`): newest first, paged by cursor; a
// pinned revision lists the entries written up to it; filters by target (exact or a substring), actor, time and
// reason text (third version "Policy edits on a live fleet").
import type { AuditResponse } from "@/lib/schema/api/audit";
import { fetchJson } from "../fetch-json";

const AUDIT_PAGE = 50;

/** The audit filters a page carries in its URL and sends as they are. */
export interface AuditFilters {
  /** the exact table (links from a table's policy) */
  target: string | null;
  /** a substring of the table, any case (the form's "Table contains") */
  target_q: string | null;
  actor: string | null;
  from_ms: number | null;
  to_ms: number | null;
  q: string | null;
}

export const NO_AUDIT_FILTERS: AuditFilters = {
  target: null,
  target_q: null,
  actor: null,
  from_ms: null,
  to_ms: null,
  q: null,
};

export const auditKeys = {
  all: ["audit"] as const,
  list: (filters: AuditFilters, revision: number | null) =>
    [
      "audit",
      filters.target ?? "",
      filters.target_q ?? "",
      filters.actor ?? "",
      filters.from_ms ?? "",
      filters.to_ms ?? "",
      filters.q ?? "",
      revision ?? "live",
    ] as const,
};

export function fetchAudit(
  params: { filters: AuditFilters; cursor: string | null; revision: number | null },
  signal?: AbortSignal,
): Promise<AuditResponse> {
  return fetchJson<AuditResponse>(
    "/api/v1/audit",
    { ...params.filters, cursor: params.cursor, revision: params.revision, limit: AUDIT_PAGE },
    signal,
  );
}
