"use client";
// `/audit`: policy changes, newest first, each with its actor, reason (and the takeover gates
// it overrode, with their second reason) and diff, a link to
// the table as it stood at the change's revision, and (for an admin, when live) "revert to
// before": the policy form holding the document from before the change, saved like any
// other change (preview, reason, If-Match). Filters travel in the URL; honours the pin.
import Link from "next/link";
import { useAudit } from "@/lib/client/hooks";
import type { AuditFilters } from "@/lib/client/resources/audit";
import { usePinnedRevision, withRevision } from "@/lib/client/revision";
import { QueryState } from "@/components/ui/query-state";
import { withoutVersion } from "@/components/policies/fields";
import { PolicyDiff } from "@/components/policies/policy-diff";
import { formatCount, formatTime } from "@/components/ui/format";
import { gateLabel } from "@/components/takeover/gate-labels";
import { AuditFilterForm } from "./audit-filter-form";
import { hasFilters, historyHref } from "./filters";
import { coveringGlob } from "@/lib/schema/target-glob";
import { ruleWords } from "@/lib/words/rights";

export function AuditList({
  filters,
  canWrite,
  adminTargets = ["*"],
}: {
  filters: AuditFilters;
  canWrite: boolean;
  /** the globs this person may save (console-api.md "Single sign-on and team rights"): revert only there */
  adminTargets?: readonly string[];
}) {
  const query = useAudit(filters);
  const pinned = usePinnedRevision();
  const pages = { ...query, data: query.data?.pages };
  const filtered = hasFilters(filters);
  return (
    <div>
      <div className="page-title">
        <h1>Audit log{filters.target ? ` · ${filters.target}` : ""}</h1>
        {pinned !== null && <span className="muted">changes up to etcd revision {formatCount(pinned)}</span>}
        <Link href={withRevision("/policies", pinned)}>policies</Link>
      </div>
      <AuditFilterForm filters={filters} revision={pinned} />
      <QueryState query={pages} what="the audit log">
        {(loaded) => {
          const entries = loaded.flatMap((p) => p.entries);
          if (entries.length === 0) {
            return (
              <div className="state state-empty" data-testid="audit-empty">
                No policy changes{filtered ? " match these filters" : ""}
                {pinned !== null ? " up to this revision" : filtered ? "" : " yet"}.
              </div>
            );
          }
          return (
            <ol className="grid" style={{ listStyle: "none", padding: 0 }} data-testid="audit-list">
              {entries.map((e) => (
                <li key={e.id} className="panel" data-testid="audit-entry" data-target={e.target} data-id={e.id}>
                  <div>
                    <strong>{formatTime(e.at_ms)}</strong> ·{" "}
                    <span className="mono" data-testid="audit-actor">
                      {e.actor}
                    </span>{" "}
                    ·{" "}
                    <Link className="target" href={withRevision(`/policies/${encodeURIComponent(e.target)}`, pinned)}>
                      {e.target}
                    </Link>{" "}
                    · {e.after === null ? "deleted the override" : e.before === null ? "created" : "changed"} ·
                    mod_revision {formatCount(e.mod_revision)} ·{" "}
                    <Link href={historyHref(e.target, e.mod_revision)} data-testid="audit-history">
                      {e.target === "_default" ? "the fleet default" : "the table"} at revision{" "}
                      {formatCount(e.mod_revision)}
                    </Link>
                  </div>
                  <p data-testid="audit-reason">
                    {e.reason === null ? <span className="muted">no reason recorded</span> : <>Reason: {e.reason}</>}
                  </p>
                  {e.overridden_gates.length > 0 && (
                    <p className="state state-stale" data-testid="audit-override">
                      Overrode the takeover {e.overridden_gates.length === 1 ? "gate" : "gates"}{" "}
                      {e.overridden_gates.map((g, i) => (
                        <span key={g}>
                          {i > 0 ? ", " : ""}“{gateLabel(g)}”
                        </span>
                      ))}
                      . Why: {e.override_reason ?? <span className="muted">no reason recorded</span>}
                    </p>
                  )}
                  {e.rule && (
                    <p className="muted" data-testid="audit-rule">
                      Allowed by {ruleWords(e.rule)}
                      {e.rule.source === "rbac_file" && <>, which covers {e.rule.glob}</>}.
                    </p>
                  )}
                  <PolicyDiff before={withoutVersion(e.before)} after={withoutVersion(e.after)} />
                  {canWrite && pinned === null && coveringGlob(adminTargets, e.target) !== null && (
                    <Link
                      href={`/policies/${encodeURIComponent(e.target)}?revert=${encodeURIComponent(e.id)}`}
                      data-testid="revert"
                    >
                      Revert to before this change…
                    </Link>
                  )}
                </li>
              ))}
            </ol>
          );
        }}
      </QueryState>
      {query.hasNextPage && (
        <button type="button" onClick={() => query.fetchNextPage()} disabled={query.isFetchingNextPage}>
          Older changes
        </button>
      )}
    </div>
  );
}
