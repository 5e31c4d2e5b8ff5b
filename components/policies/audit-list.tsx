"use client";
// `/audit`: policy changes, newest first, each with its reason and its diff, and (for an
// admin, when live) "revert to before": the policy form holding the document from before
// the change, saved like any other change (preview, reason, If-Match). Honours the pin.
import Link from "next/link";
import { useAudit } from "@/lib/client/hooks";
import { usePinnedRevision, withRevision } from "@/lib/client/revision";
import { QueryState } from "@/components/ui/query-state";
import { withoutVersion } from "./fields";
import { PolicyDiff } from "./policy-diff";
import { formatCount, formatTime } from "@/components/ui/format";


export function AuditList({ target, canWrite }: { target: string | null; canWrite: boolean }) {
  const query = useAudit(target);
  const pinned = usePinnedRevision();
  const pages = { ...query, data: query.data?.pages };
  return (
    <div>
      <div className="page-title">
        <h1>Audit log{target ? ` · ${target}` : ""}</h1>
        {pinned !== null && <span className="muted">changes up to etcd revision {formatCount(pinned)}</span>}
        {target && <Link href={withRevision("/audit", pinned)}>all tables</Link>}
        <Link href={withRevision("/policies", pinned)}>policies</Link>
      </div>
      <QueryState query={pages} what="the audit log">
        {(loaded) => {
          const entries = loaded.flatMap((p) => p.entries);
          if (entries.length === 0) return <div className="state state-empty">No policy changes{pinned !== null ? " up to this revision" : " yet"}.</div>;
          return (
            <ol className="grid" style={{ listStyle: "none", padding: 0 }} data-testid="audit-list">
              {entries.map((e) => (
                <li key={e.id} className="panel" data-testid="audit-entry" data-target={e.target} data-id={e.id}>
                  <div>
                    <strong>{formatTime(e.at_ms)}</strong> · <span className="mono">{e.actor}</span> ·{" "}
                    <Link className="target" href={withRevision(`/policies/${encodeURIComponent(e.target)}`, pinned)}>
                      {e.target}
                    </Link>{" "}
                    · {e.after === null ? "deleted the override" : e.before === null ? "created" : "changed"} · mod_revision {formatCount(e.mod_revision)}
                  </div>
                  <p data-testid="audit-reason">{e.reason === null ? <span className="muted">no reason recorded</span> : <>Reason: {e.reason}</>}</p>
                  <PolicyDiff before={withoutVersion(e.before)} after={withoutVersion(e.after)} />
                  {canWrite && pinned === null && (
                    <Link href={`/policies/${encodeURIComponent(e.target)}?revert=${encodeURIComponent(e.id)}`} data-testid="revert">
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
