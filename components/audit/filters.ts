// The audit page's filters as its URL carries them (console-api.md third version: "GET
// /audit accepts target, actor, from_ms, to_ms and q"), and the UTC times the form shows.
// Pure: no React, no clock.
import { NO_AUDIT_FILTERS, type AuditFilters } from "@/lib/client/resources/audit";

type Params = Record<string, string | string[] | undefined>;
const text = (v: string | string[] | undefined, max: number) =>
  typeof v === "string" && v.trim().length > 0 && v.length <= max ? v.trim() : null;
const ms = (v: string | string[] | undefined) => (typeof v === "string" && /^\d{1,16}$/.test(v) ? Number(v) : null);

/** The filters of a URL's search params; anything the API would refuse is left out. */
export function filtersOf(params: Params): AuditFilters {
  return {
    ...NO_AUDIT_FILTERS,
    target: text(params.target, 512),
    target_q: text(params.target_q, 512),
    actor: text(params.actor, 320),
    from_ms: ms(params.from_ms),
    to_ms: ms(params.to_ms),
    q: text(params.q, 500),
  };
}

/** `/audit?…` holding the filters (and the pinned revision), in a fixed order. */
export function auditHref(filters: AuditFilters, revision: number | null): string {
  const q = new URLSearchParams();
  for (const key of ["target", "target_q", "actor", "from_ms", "to_ms", "q"] as const) {
    const v = filters[key];
    if (v !== null) q.set(key, String(v));
  }
  if (revision !== null) q.set("revision", String(revision));
  const s = q.toString();
  return s ? `/audit?${s}` : "/audit";
}

/** Unix ms → the value of a `datetime-local` input read as UTC ("2026-12-02T03:04:05"). */
export function utcInputValue(value: number | null): string {
  return value === null ? "" : new Date(value).toISOString().slice(0, 19);
}

/** A `datetime-local` value read as UTC → Unix ms; "" or nonsense → null. */
export function utcInputMs(value: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const ms = Date.parse(`${value}Z`);
  return Number.isFinite(ms) ? ms : null;
}

export const hasFilters = (f: AuditFilters) => Object.values(f).some((v) => v !== null);

/**
 * Where an entry's change can be seen: the table's page pinned at the revision the change
 * was written (the target percent-encoded in the path), or for the fleet default the
 * policies page pinned there.
 */
export function historyHref(target: string, modRevision: number): string {
  if (target === "_default") return `/policies/_default?revision=${modRevision}`;
  return `/tables/${encodeURIComponent(target)}?revision=${modRevision}`;
}
