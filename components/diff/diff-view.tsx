"use client";
// What changed between two moments: counts first, each one click from its members (the
// open group is in the URL, `?show=`), each side evaluated at its own time. Reached from
// the picker ("compare with now", `?from=R`) and the overview ("what changed in the last
// hour", `?since=1h`).
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { useState } from "react";
import { formatCount, formatTime } from "@/components/ui/format";
import { PageTitle } from "@/components/ui/page-title";
import { QueryState } from "@/components/ui/query-state";
import { diffKeys, fetchDiff, type DiffResponse, type DiffSide } from "@/lib/client/resources/diff";
import { describeRevisionTime } from "@/lib/client/resources/revisions";
import { OUTCOMES } from "@/lib/client/api-types";
import { diffGroups } from "./diff-groups";

const SINCE = /^(\d+)([mhd])$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

function sideOf(revision: string | null, atMs: string | null): DiffSide | null {
  if (revision !== null && /^\d{1,16}$/.test(revision)) return { revision: Number(revision) };
  if (atMs !== null && /^\d{1,16}$/.test(atMs)) return { atMs: Number(atMs) };
  return null;
}

function SideLabel({ side }: { side: DiffResponse["from"] }) {
  return (
    <span>
      revision {formatCount(side.revision)}
      {side.at_ms !== null ? ` · ${formatTime(side.at_ms)} (${describeRevisionTime(side)})` : ""}
    </span>
  );
}

export function DiffView() {
  const params = useSearchParams();
  const pathname = usePathname();
  // `since` is resolved once, when the page opens, so the comparison holds still
  const [openedMs] = useState(() => Date.now());
  const since = SINCE.exec(params.get("since") ?? "");
  const from = sideOf(params.get("from"), params.get("from_ms")) ?? (since ? { atMs: openedMs - Number(since[1]) * UNIT_MS[since[2] as keyof typeof UNIT_MS] } : null);
  const to = sideOf(params.get("to"), params.get("to_ms"));
  const show = params.get("show");
  const query = useQuery({
    queryKey: diffKeys.diff(from ?? { revision: 0 }, to),
    queryFn: ({ signal }) => fetchDiff(from!, to, signal),
    enabled: from !== null,
    staleTime: Infinity,
  });
  const hrefShow = (id: string | null) => {
    const next = new URLSearchParams(params.toString());
    if (id === null || id === show) next.delete("show");
    else next.set("show", id);
    return `${pathname}?${next.toString()}`;
  };
  if (from === null) {
    return (
      <>
        <PageTitle title="What changed" />
        <div className="state state-empty">
          Pick a starting point: <Link href="/diff?since=1h">the last hour</Link>, <Link href="/diff?since=6h">the last 6 hours</Link>, or pin a revision and choose
          &ldquo;compare with now&rdquo;.
        </div>
      </>
    );
  }
  return (
    <QueryState query={query} what="the comparison">
      {(d) => {
        const groups = diffGroups(d);
        const open = groups.find((g) => g.id === show) ?? null;
        const tableHref = (t: string) => `/tables/${encodeURIComponent(t)}?revision=${d.to.revision}`;
        return (
          <>
            <PageTitle title="What changed" />
            <p data-testid="diff-sides">
              From <SideLabel side={d.from} /> to <SideLabel side={d.to} />. Each side is evaluated at its own time.
            </p>
            <div className="grid grid-4" data-testid="diff-counts">
              {groups.map((g) => (
                <Link key={g.id} href={hrefShow(g.id)} className={`panel count-card${g.id === show ? " active" : ""}`} aria-current={g.id === show ? "true" : undefined} data-testid={`count-${g.id}`}>
                  <strong className="count-number">{formatCount(g.members.length)}</strong> {g.label}
                </Link>
              ))}
            </div>
            {open ? (
              <section className="panel" aria-label={open.label} data-testid="diff-members" style={{ marginTop: 10 }}>
                <h2>
                  {formatCount(open.members.length)} {open.label}
                </h2>
                {open.members.length === 0 ? (
                  <p className="muted">None.</p>
                ) : (
                  <ul className="member-list">
                    {open.members.map((m) => (
                      <li key={m.key}>
                        {m.target !== undefined ? (
                          <Link href={tableHref(m.target)} className="mono">
                            {m.target}
                          </Link>
                        ) : m.executor !== undefined ? (
                          <Link href={`/executors?revision=${d.to.revision}`} className="mono">
                            {m.executor}
                          </Link>
                        ) : (
                          <Link href={`/policies?revision=${d.to.revision}`} className="mono">
                            {m.key}
                          </Link>
                        )}{" "}
                        <span className="muted">{m.text}</span>
                      </li>
                    ))}
                  </ul>
                )}
              </section>
            ) : null}
            <div className="grid grid-2" style={{ marginTop: 10 }}>
              <section className="panel" aria-label="leader">
                <h2>Leader</h2>
                <p data-testid="diff-leader">
                  {d.leader.changed ? "Changed: " : "Unchanged: "}
                  {d.leader.before ? `${d.leader.before.instance} (since ${formatTime(d.leader.before.since_ms)})` : "none"}
                  {d.leader.changed ? ` → ${d.leader.after ? `${d.leader.after.instance} (since ${formatTime(d.leader.after.since_ms)})` : "none"}` : ""}
                </p>
              </section>
              <section className="panel" aria-label="shadow outcomes">
                <h2>Shadow outcomes</h2>
                <table className="table">
                  <thead>
                    <tr>
                      <th scope="col">outcome</th>
                      <th scope="col">before</th>
                      <th scope="col">after</th>
                    </tr>
                  </thead>
                  <tbody>
                    {OUTCOMES.map((o) => (
                      <tr key={o}>
                        <td>{o.replace(/_/g, " ")}</td>
                        <td>{formatCount(d.shadow.before[o])}</td>
                        <td>{formatCount(d.shadow.after[o])}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </section>
            </div>
          </>
        );
      }}
    </QueryState>
  );
}
