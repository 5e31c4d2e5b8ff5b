// `/tables/[target]`: one table in depth. The target travels URL-encoded.
// A live page asks for the table and its 6 h history while it renders on the server
// (app/self-reads.ts): it arrives drawn — the table first, the chart streamed in
// when its history is read — instead of drawing once React has hydrated it. A pinned page's
// history needs the table's time first: it is asked by the client part, as before.
import { HydrationBoundary } from "@tanstack/react-query";
import { headers } from "next/headers";
import { Suspense } from "react";
import { HistoryChart, HistoryChartLoading } from "@/components/tables/history-chart";
import { HistoryDrawn } from "@/components/tables/history-figure";
import { TableDetailView } from "@/components/tables/table-detail";
import { tableHistoryRead, tableRead } from "@/lib/client/resources/first-reads";
import type { HistoryResponse } from "@/lib/client/resources/table-history";
import { readOnServer, seeded } from "@/app/self-reads";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata({ params }: { params: Promise<{ target: string }> }) {
  const { target } = await params;
  return { title: `${decodeTarget(target)} · Scheduler Console` };
}

function decodeTarget(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The live table, its answer read while the page renders; its history's read goes on beside it. */
async function LiveTable({ target }: { target: string }) {
  const incoming = await headers();
  const table = tableRead(target, null);
  const history = tableHistoryRead(target, null);
  const historyAnswer = readOnServer(history, incoming); // not awaited here: the table does not wait for it
  const tableAnswer = await readOnServer(table, incoming);
  return (
    <HydrationBoundary state={seeded([{ read: table, answer: tableAnswer }])}>
      <TableDetailView
        target={target}
        history={
          <Suspense fallback={<HistoryChartLoading />}>
            <LiveHistory answer={historyAnswer} target={target} />
          </Suspense>
        }
      />
    </HydrationBoundary>
  );
}

/**
 * The history as the server drew it from the answer it read: the chart is on the page before
 * React hydrates it; the browser then reads the answer itself and makes the chart interactive.
 * (The answer is ~800 KB of JSON for a busy table's 6 h: sent along as data to hydrate with,
 * it cost more than it saved.)
 */
async function LiveHistory({ target, answer }: { target: string; answer: Promise<unknown> }) {
  const h = (await answer) as HistoryResponse | null;
  return <HistoryChart target={target} drawn={h === null ? undefined : <HistoryDrawn h={h} target={target} />} />;
}

export default async function TableDetailPage({
  params,
  searchParams,
}: {
  params: Promise<{ target: string }>;
  searchParams: SearchParams;
}) {
  const target = decodeTarget((await params).target);
  const pinned = (await searchParams).revision !== undefined;
  return (
    <Suspense fallback={<div className="state state-loading">Loading table…</div>}>
      {pinned ? <TableDetailView target={target} /> : <LiveTable target={target} />}
    </Suspense>
  );
}
