"use client";
// `/audit`: policy changes, newest first, each with its before/after diff.
import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { fetchAudit, policyQueryKeys } from "./api";
import { withoutVersion } from "./fields";
import { PolicyDiff } from "./policy-diff";

export function AuditList({ target }: { target: string | null }) {
  const query = useInfiniteQuery({
    queryKey: policyQueryKeys.audit(target),
    queryFn: ({ pageParam }) => fetchAudit({ target, cursor: pageParam, limit: 50 }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });
  const entries = query.data?.pages.flatMap((p) => p.entries) ?? [];
  return (
    <div>
      <div className="page-title">
        <h1>Audit log{target ? ` · ${target}` : ""}</h1>
        {target && <Link href="/audit">all tables</Link>}
        <Link href="/policies">policies</Link>
      </div>
      {query.isPending ? (
        <div className="state state-loading">Loading the audit log…</div>
      ) : query.isError && entries.length === 0 ? (
        <div className="state state-error">Could not load the audit log: {(query.error as Error).message}</div>
      ) : entries.length === 0 ? (
        <div className="state state-empty">No policy changes yet.</div>
      ) : (
        <ol className="grid" style={{ listStyle: "none", padding: 0 }} data-testid="audit-list">
          {entries.map((e) => (
            <li key={e.id} className="panel" data-testid="audit-entry" data-target={e.target}>
              <div>
                <strong>{new Date(e.at_ms).toISOString()}</strong> · <span className="mono">{e.actor}</span> ·{" "}
                <Link className="target" href={`/policies/${encodeURIComponent(e.target)}`}>{e.target}</Link> ·{" "}
                {e.after === null ? "deleted the override" : e.before === null ? "created" : "changed"} · mod_revision {e.mod_revision}
              </div>
              <PolicyDiff before={withoutVersion(e.before)} after={withoutVersion(e.after)} />
            </li>
          ))}
        </ol>
      )}
      {query.hasNextPage && (
        <button type="button" onClick={() => query.fetchNextPage()} disabled={query.isFetchingNextPage}>
          Older changes
        </button>
      )}
    </div>
  );
}
