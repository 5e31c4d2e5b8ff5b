"use client";
// `/reasons`: how many due tables held each verdict code over a window, from the decision
// journal (console-api.md "The decision journal", GET /scheduler/reasons). The window is in
// the URL (`?window=1h|6h|overnight|custom&from_ms=&to_ms=`), the opened band too
// (`?at_ms=&code=`). A pinned page (`?revision=R`) ends its window at the revision's time;
// a live one at the moment it was opened (the server's clock), so the chart holds still while it is read.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { formatCount, formatTime } from "@/components/ui/format";
import { PageTitle } from "@/components/ui/page-title";
import { QueryState } from "@/components/ui/query-state";
import { usePinnedRevision, withRevision } from "@/lib/client/revision";
import {
  codesOf,
  fetchReasonTargets,
  fetchReasons,
  fetchServerNow,
  reasonsKeys,
  stepFor,
} from "@/lib/client/resources/reasons";
import { fetchRevisionTime, revisionKeys } from "@/lib/client/resources/revisions";
import { colorOf, ReasonsChart, wordsOf } from "./reasons-chart";
import { coverageOf, NotCovered } from "./not-covered";

const HOUR = 3_600_000;
const WINDOWS = [
  { id: "1h", label: "last hour", ms: HOUR },
  { id: "6h", label: "last 6 hours", ms: 6 * HOUR },
  { id: "overnight", label: "overnight (14 hours)", ms: 14 * HOUR },
] as const;
const digits = (s: string | null) => (s !== null && /^\d{1,16}$/.test(s) ? Number(s) : null);
const isoMinute = (ms: number) => new Date(ms).toISOString().slice(0, 16);

export function ReasonsView() {
  const params = useSearchParams();
  const pathname = usePathname();
  const router = useRouter();
  const revision = usePinnedRevision();
  // a live window ends when the page was opened, on the server's clock (gcTime 0: the next visit asks again)
  const opened = useQuery({
    queryKey: reasonsKeys.opened(),
    queryFn: ({ signal }) => fetchServerNow(signal),
    enabled: revision === null,
    staleTime: Infinity,
    gcTime: 0,
  });
  const pin = useQuery({
    queryKey: revisionKeys.time(revision ?? 0),
    queryFn: ({ signal }) => fetchRevisionTime(revision!, signal),
    enabled: revision !== null,
    staleTime: Infinity,
  });
  const windowId = params.get("window") ?? "1h";
  const end = revision === null ? (opened.data ?? null) : (pin.data?.at_ms ?? null);
  const custom =
    windowId === "custom" ? { from: digits(params.get("from_ms")), to: digits(params.get("to_ms")) } : null;
  const span = WINDOWS.find((w) => w.id === windowId)?.ms ?? HOUR;
  const toMs = custom?.to !== null && custom?.to !== undefined ? (end !== null ? Math.min(custom.to, end) : null) : end;
  const fromMs = custom?.from !== null && custom?.from !== undefined ? custom.from : toMs === null ? null : toMs - span;
  const ready = fromMs !== null && toMs !== null && fromMs < toMs;
  const step = ready ? stepFor(fromMs, toMs) : 0;
  const reasons = useQuery({
    queryKey: reasonsKeys.reasons(fromMs ?? 0, toMs),
    queryFn: ({ signal }) => fetchReasons(fromMs!, toMs, step, signal),
    enabled: ready,
    staleTime: Infinity,
  });
  // a window the journal does not cover is said in words, with the part it covers (./not-covered.tsx)
  const notCovered = reasons.data === undefined && reasons.isError ? coverageOf(reasons.error) : null;
  const atMs = digits(params.get("at_ms"));
  const code = params.get("code");
  const targets = useQuery({
    queryKey: reasonsKeys.targets(atMs ?? 0, code ?? ""),
    queryFn: ({ signal }) => fetchReasonTargets(atMs!, code!, signal),
    enabled: atMs !== null && code !== null,
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
  const open = (at: number, c: string) => router.push(hrefWith({ at_ms: String(at), code: c }), { scroll: false });
  const setCustom = (which: "from_ms" | "to_ms", value: string) => {
    const ms = Date.parse(`${value}:00Z`);
    if (Number.isFinite(ms))
      router.push(
        hrefWith({
          window: "custom",
          [which]: String(ms),
          ...(fromMs !== null && which === "to_ms" && !params.get("from_ms") ? { from_ms: String(fromMs) } : {}),
        }),
      );
  };
  return (
    <>
      <PageTitle title="Reasons over time" revision={revision ?? undefined} />
      <nav
        className="filter-bar"
        aria-label="window"
        data-testid="reasons-windows"
        style={{ display: "flex", gap: 12, flexWrap: "wrap", alignItems: "center" }}
      >
        {WINDOWS.map((w) => (
          <Link
            key={w.id}
            href={hrefWith({ window: w.id, from_ms: null, to_ms: null, at_ms: null, code: null })}
            aria-current={windowId === w.id ? "true" : undefined}
            className={windowId === w.id ? "active" : undefined}
          >
            {w.label}
          </Link>
        ))}
        <label>
          from (UTC){" "}
          <input
            type="datetime-local"
            aria-label="from (UTC)"
            value={fromMs !== null ? isoMinute(fromMs) : ""}
            onChange={(e) => setCustom("from_ms", e.target.value)}
          />
        </label>
        <label>
          to (UTC){" "}
          <input
            type="datetime-local"
            aria-label="to (UTC)"
            value={toMs !== null ? isoMinute(toMs) : ""}
            onChange={(e) => setCustom("to_ms", e.target.value)}
          />
        </label>
      </nav>
      {!ready && fromMs !== null && toMs !== null ? (
        <div className="state state-empty">The window&rsquo;s start must be before its end.</div>
      ) : null}
      {notCovered !== null && fromMs !== null && toMs !== null ? (
        <NotCovered
          coverage={notCovered}
          fromMs={fromMs}
          toMs={toMs}
          hrefFor={(from, to) =>
            hrefWith({ window: "custom", from_ms: String(from), to_ms: String(to), at_ms: null, code: null })
          }
        />
      ) : (
        <QueryState query={reasons} what="the reasons (from the decision journal)">
          {(r) => {
            const codes = codesOf(r);
            return (
              <>
                <p data-testid="reasons-window">
                  Due tables (neither tail nor idle) by reason, every {Math.round(r.step_ms / 1000)} s from{" "}
                  {formatTime(r.from_ms)} to {formatTime(r.to_ms)}, from the decision journal. Open a band or a count to
                  list its tables.
                </p>
                <section className="panel" aria-label="chart">
                  <ReasonsChart r={r} codes={codes} onOpen={open} />
                  <ul className="legend" aria-label="legend">
                    {codes.map((c) => (
                      <li key={c}>
                        <span
                          style={{ display: "inline-block", width: 10, height: 10, background: colorOf(codes, c) }}
                        />{" "}
                        {wordsOf(c)}
                      </li>
                    ))}
                  </ul>
                </section>
                {atMs !== null && code !== null ? (
                  <section
                    className="panel"
                    aria-label="tables"
                    data-testid="reasons-targets"
                    style={{ marginTop: 10 }}
                  >
                    <QueryState query={targets} what="the tables">
                      {(t) => (
                        <>
                          <h2>
                            {formatCount(t.targets.length)} {t.targets.length === 1 ? "table" : "tables"}{" "}
                            {wordsOf(t.code)} at {formatTime(t.at_ms)}
                          </h2>
                          <ul className="member-list">
                            {t.targets.map((target) => (
                              <li key={target}>
                                <Link
                                  className="mono"
                                  href={withRevision(`/tables/${encodeURIComponent(target)}`, revision)}
                                >
                                  {target}
                                </Link>
                              </li>
                            ))}
                          </ul>
                        </>
                      )}
                    </QueryState>
                  </section>
                ) : null}
                <section className="panel" aria-label="data" style={{ marginTop: 10 }}>
                  <table className="table" data-testid="reasons-table">
                    <thead>
                      <tr>
                        <th scope="col">time</th>
                        <th scope="col">due</th>
                        {codes.map((c) => (
                          <th scope="col" key={c}>
                            {wordsOf(c)}
                          </th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {r.points.map((p) => (
                        <tr key={p.at_ms}>
                          <td>{formatTime(p.at_ms)}</td>
                          <td>{formatCount(p.due)}</td>
                          {codes.map((c) => (
                            <td key={c}>
                              {p.by_code[c] ? (
                                <Link
                                  href={hrefWith({ at_ms: String(p.at_ms), code: c })}
                                  scroll={false}
                                  data-testid={`cell-${p.at_ms}-${c}`}
                                >
                                  {formatCount(p.by_code[c])}
                                </Link>
                              ) : (
                                "0"
                              )}
                            </td>
                          ))}
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </section>
              </>
            );
          }}
        </QueryState>
      )}
    </>
  );
}
