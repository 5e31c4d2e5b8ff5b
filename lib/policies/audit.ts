import "server-only";
// GET /api/v1/audit (console-api.md): policy changes newest first, each with its reason;
// pinned to `?revision=R` it lists what had been written up to R. A stored record is read
// through its zod schema (`auditRecord`): a malformed one is left out and counted
// (`console_audit_skipped_total`), never an error.
import { etcdClient, etcdPrefix } from "@/lib/etcd/client";
import { scanAudit } from "@/lib/etcd/policy-store";
import { metrics } from "@/lib/metrics";
import { auditRecordSchema, type AuditEntry, type AuditQuery, type AuditResponse } from "@/lib/schema/api/audit";

/** One stored record as the log lists it; null when it is not JSON or fails `auditRecord`. */
export function auditEntryOf(id: string, value: Buffer, modRevision: number): AuditEntry | null {
  let json: unknown;
  try {
    json = JSON.parse(value.toString("utf8"));
  } catch {
    return null;
  }
  const parsed = auditRecordSchema.safeParse(json);
  if (!parsed.success) return null;
  const r = parsed.data;
  return {
    id,
    at_ms: r.at_ms,
    actor: r.actor,
    target: r.target,
    before: r.before,
    after: r.after,
    reason: r.reason,
    overridden_gates: r.overridden_gates,
    override_reason: r.override_reason,
    rule: r.rule,
    mod_revision: modRevision,
  };
}

/** What an audit listing keeps (console-api.md third version: `target`, `actor`, `from_ms`, `to_ms`, `q`). */
interface AuditFilter {
  target?: string;
  /** a substring of the target, any case */
  target_q?: string;
  actor?: string;
  /** inclusive bounds on `at_ms` */
  from_ms?: number;
  to_ms?: number;
  /** a substring of the reason or of the override reason, any case */
  q?: string;
}

function keeps(filter: AuditFilter, e: AuditEntry): boolean {
  if (filter.target !== undefined && e.target !== filter.target) return false;
  if (filter.target_q !== undefined && !e.target.toLowerCase().includes(filter.target_q.toLowerCase())) return false;
  if (filter.actor !== undefined && e.actor.toLowerCase() !== filter.actor.toLowerCase()) return false;
  if (filter.from_ms !== undefined && e.at_ms < filter.from_ms) return false;
  if (filter.to_ms !== undefined && e.at_ms > filter.to_ms) return false;
  if (filter.q !== undefined && !reasonsMatch(e, filter.q)) return false;
  return true;
}

/** `q` finds an entry by either reason it keeps: the change's and, where gates were overridden, the override's. */
function reasonsMatch(e: AuditEntry, q: string): boolean {
  const needle = q.toLowerCase();
  return [e.reason, e.override_reason].some((r) => r !== null && r.toLowerCase().includes(needle));
}

const filtered = (f: AuditFilter) =>
  f.target !== undefined ||
  f.target_q !== undefined ||
  f.actor !== undefined ||
  f.from_ms !== undefined ||
  f.to_ms !== undefined ||
  f.q !== undefined;

/** Audit entries newest first, filtered (`lib/etcd/policy-store.ts` `scanAudit` pages the key range). */
export async function auditLog(query: AuditQuery): Promise<AuditResponse> {
  const log = await scanAudit(etcdClient(), etcdPrefix(), {
    ...query,
    filtered: filtered(query),
    keep: (id, value, modRevision) => {
      const entry = auditEntryOf(id, value, modRevision);
      if (entry === null) metrics().auditSkipped.inc();
      return entry && keeps(query, entry) ? entry : null;
    },
  });
  return { ...log, read_at_ms: Date.now() };
}
