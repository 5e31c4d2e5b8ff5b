"use client";
// What changed between two moments: counts first, each one click from its members (the
// open group is in the URL, `?show=`), each side evaluated at its own time. Reached from
// the picker ("compare with now", `?from=R`) and the overview ("what changed in the last
// hour", `?since=1h`). `since` counts back from the server's moment, never the browser's
// clock (console-api.md "One answer, as of its moment"): the pin's own time, or the live
// answer's `now_ms`; the comparison then ends at that answer's revision, so it holds still.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { formatCount, formatTime } from "@/components/ui/format";
import { PageTitle } from "@/components/ui/page-title";
import { QueryState } from "@/components/ui/query-state";
import { diffKeys, fetchDiff, type DiffResponse, type DiffSide } from "@/lib/client/resources/diff";
import { fetchExecutors } from "@/lib/client/resources/executors";
import { describeRevisionTime, fetchRevisionTime } from "@/lib/client/resources/revisions";
import { usePinnedRevision } from "@/lib/client/revision";
import { OUTCOMES } from "@/lib/client/api-types";
import { historyStartInWords } from "@/lib/words/history-start";
import { OUTCOME_MEANING } from "@/lib/words/outcomes";
import { countOf } from "@/lib/words/format";
import { diffGroups } from "./diff-groups";

const SINCE = /^(\d+)([mhd])$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/** `?from=` / `?to=`: a revision, Unix ms (from 10^12) or an ISO 8601 time, as the API reads them; or `?from_ms=` */
function sideOf(moment: string | null, atMs: string | null): DiffSide | null {
  if (moment !== null && /^\d{1,16}$/.test(moment))
    return Number(moment) < 1e12 ? { revision: Number(moment) } : { atMs: Number(moment) };
  if (moment !== null && ISO.test(moment) && Number.isFinite(Date.parse(moment))) return { atMs: Date.parse(moment) };
  if (atMs !== null && /^\d{1,16}$/.test(atMs)) return { atMs: Number(atMs) };
  return null;
}

/** "2026-12-06 13:02:00": the console's one way of writing a UTC time, 24-hour, to the second. */
const pickerText = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace("T", " ");
/** "2026-12-06 13:02", "2026-12-06T13:02:30" (UTC): the text a picker accepts; null until it is a whole time. */
function pickedMs(text: string): number | null {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(:\d{2})?Z?$/.exec(text.trim());
  if (!m) return null;
  const ms = Date.parse(`${m[1]}T${m[2]}${m[3] ?? ":00"}Z`);
  return Number.isFinite(ms) ? ms : null;
}

/** One side's picker: the time the URL asked for (never the side's revision time rounded), else the side's. */
function SidePicker({
  which,
  asked,
  side,
  onPick,
}: {
  which: "from" | "to";
  asked: number | null;
  side: DiffResponse["from"] | null;
  onPick: (ms: number) => void;
}) {
  const shown = asked ?? side?.at_ms ?? null;
  const [text, setText] = useState(shown === null ? "" : pickerText(shown));
  const [was, setWas] = useState(shown);
  if (was !== shown) {
    setWas(shown);
    setText(shown === null ? "" : pickerText(shown));
  }
  const ms = pickedMs(text);
  return (
    <label>
      {which} (UTC){" "}
      <input
        type="text"
        inputMode="numeric"
        aria-label={`${which} (UTC)`}
        placeholder="YYYY-MM-DD HH:MM"
        size={19}
        value={text}
        aria-invalid={text !== "" && ms === null}
        onChange={(e) => {
          setText(e.target.value);
          const picked = pickedMs(e.target.value);
          if (picked !== null && picked !== shown) onPick(picked);
        }}
      />
    </label>
  );
}

/** Pick either side by wall time (UTC, 24-hour, as every page writes times): the URL gets `from=<ISO>` / `to=<ISO>`. */
function TimePicker({
  from,
  to,
  asked,
  hrefWith,
}: {
  from: DiffResponse["from"] | null;
  to: DiffResponse["to"] | null;
  /** the times the URL itself names (`from=` / `to=` as ISO or ms), shown as asked */
  asked: { from: number | null; to: number | null };
  hrefWith: (set: Record<string, string | null>) => string;
}) {
  const router = useRouter();
  const pick = (which: "from" | "to", ms: number) =>
    router.push(
      hrefWith({
        [which]: new Date(ms).toISOString().replace(".000Z", "Z"),
        [`${which}_ms`]: null,
        since: null,
        show: null,
      }),
    );
  return (
    <p className="filter-bar" data-testid="diff-pick">
      <SidePicker which="from" asked={asked.from} side={from} onPick={(ms) => pick("from", ms)} />{" "}
      <SidePicker which="to" asked={asked.to} side={to} onPick={(ms) => pick("to", ms)} />
    </p>
  );
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
  const router = useRouter();
  const pin = usePinnedRevision();
  const since = SINCE.exec(params.get("since") ?? "");
  const givenFrom = sideOf(params.get("from"), params.get("from_ms"));
  const givenTo = sideOf(params.get("to"), params.get("to_ms"));
  const anchor = useQuery({
    queryKey: ["diff-since", pin],
    queryFn: async ({ signal }): Promise<{ revision: number; at_ms: number | null }> => {
      if (pin !== null) return { revision: pin, at_ms: (await fetchRevisionTime(pin, signal)).at_ms };
      const live = await fetchExecutors(null, signal);
      return { revision: live.revision, at_ms: live.now_ms };
    },
    enabled: since !== null && givenFrom === null,
    staleTime: Infinity,
  });
  const sinceMs = since ? Number(since[1]) * UNIT_MS[since[2] as keyof typeof UNIT_MS] : null;
  const from =
    givenFrom ?? (sinceMs !== null && anchor.data?.at_ms != null ? { atMs: anchor.data.at_ms - sinceMs } : null);
  const to =
    givenTo ?? (givenFrom === null && sinceMs !== null && anchor.data ? { revision: anchor.data.revision } : null);
  const asked = {
    from: givenFrom !== null && "atMs" in givenFrom ? givenFrom.atMs : null,
    to: givenTo !== null && "atMs" in givenTo ? givenTo.atMs : null,
  };
  const show = params.get("show");
  const filter = (params.get("q") ?? "").toLowerCase();
  const query = useQuery({
    queryKey: diffKeys.diff(from ?? { revision: 0 }, to),
    queryFn: ({ signal }) => fetchDiff(from!, to, signal),
    enabled: from !== null,
    staleTime: Infinity,
  });
  const hrefWith = (set: Record<string, string | null>) => {
    const next = new URLSearchParams(params.toString());
    for (const [k, v] of Object.entries(set)) {
      if (v === null) next.delete(k);
      else next.set(k, v);
    }
    return `${pathname}?${next.toString()}`;
  };
  const hrefShow = (id: string | null) => {
    const next = new URLSearchParams(params.toString());
    if (id === null || id === show) next.delete("show");
    else next.set("show", id);
    return `${pathname}?${next.toString()}`;
  };
  if (from === null && since !== null && givenFrom === null && !anchor.isSuccess) {
    return (
      <QueryState query={anchor} what="the moment to count back from">
        {() => null}
      </QueryState>
    );
  }
  if (from === null) {
    return (
      <>
        <PageTitle title="What changed" />
        <div className="state state-empty">
          Pick a starting point: <Link href="/diff?since=1h">the last hour</Link>,{" "}
          <Link href="/diff?since=6h">the last 6 hours</Link>, or pin a revision and choose &ldquo;compare with
          now&rdquo;, or pick a time:
        </div>
        <TimePicker from={null} to={null} asked={asked} hrefWith={hrefWith} />
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
            {d.history_starts !== null && (
              <p role="note" className="explain explain-skip" data-testid="diff-history-starts">
                <strong>The window reaches before etcd&apos;s history.</strong> {historyStartInWords(d.history_starts)}{" "}
                A table with nothing pending there counts as new pending work (
                {countOf(d.tables.appeared.length, "table")}), not as a change, so the changes below cover less than the
                window asked for.
              </p>
            )}
            <p className="muted" data-testid="diff-basis">
              {d.verdict_basis === "journal"
                ? "Both sides' verdicts are read from the decision journal."
                : d.from.verdict_basis === "journal" || d.to.verdict_basis === "journal"
                  ? `The ${d.from.verdict_basis === "journal" ? "from" : "to"} side is read from the decision journal; the other is re-planned (the journal does not cover it).`
                  : "Both sides are re-planned: the decision journal does not cover them."}
            </p>
            <TimePicker from={d.from} to={d.to} asked={asked} hrefWith={hrefWith} />
            <div className="grid grid-4" data-testid="diff-counts">
              {groups.map((g) => (
                <Link
                  key={g.id}
                  href={hrefShow(g.id)}
                  className={`panel count-card${g.id === show ? " active" : ""}`}
                  aria-current={g.id === show ? "true" : undefined}
                  data-testid={`count-${g.id}`}
                >
                  <strong className="count-number">{formatCount(g.members.length)}</strong> {g.label}
                </Link>
              ))}
            </div>
            {open ? (
              <section className="panel" aria-label={open.label} data-testid="diff-members" style={{ marginTop: 10 }}>
                <h2>
                  {formatCount(open.members.length)} {open.label}
                </h2>
                <input
                  type="search"
                  aria-label="filter the tables"
                  placeholder="filter by name or change"
                  defaultValue={params.get("q") ?? ""}
                  data-testid="diff-filter"
                  onChange={(e) =>
                    router.replace(hrefWith({ q: e.target.value === "" ? null : e.target.value }), { scroll: false })
                  }
                />
                {open.members.length === 0 ? (
                  <p className="muted">None.</p>
                ) : (
                  <ul className="member-list">
                    {open.members
                      .filter((m) => filter === "" || `${m.key} ${m.text}`.toLowerCase().includes(filter))
                      .map((m) => (
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
                  {d.leader.before
                    ? `${d.leader.before.instance} (since ${formatTime(d.leader.before.since_ms)})`
                    : "none"}
                  {d.leader.changed
                    ? ` → ${d.leader.after ? `${d.leader.after.instance} (since ${formatTime(d.leader.after.since_ms)})` : "none"}`
                    : ""}
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
                        <td>{OUTCOME_MEANING[o].label}</td>
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
