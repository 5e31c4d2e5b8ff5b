// The reads a table page makes first, as query key, path and query: its client part asks them
// through ../fetch-json.ts, and the server page asks the live ones while it renders
// (app/self-reads.ts), so the page arrives drawn. No imports: a server component reads this file.

export interface FirstRead {
  key: readonly unknown[];
  path: string;
  params: Record<string, string | number | null>;
}

/** One table (console-api.md `GET /api/v1/scheduler/demand?target=`); its key is ./demand.ts `demandKeys.table`. */
export const tableRead = (target: string, revision: number | null) => ({
  key: ["demand", "table", target, revision ?? "live"] as const,
  path: "/api/v1/scheduler/demand",
  params: { target, revision },
});

/** A table's history (`GET /api/v1/scheduler/demand/history`): a live page's ends now (`toMs` null). */
export const tableHistoryRead = (target: string, toMs: number | null) => ({
  key: ["demand", "history", target, toMs ?? "live"] as const,
  path: "/api/v1/scheduler/demand/history",
  params: { target, to_ms: toMs === null ? null : Math.floor(toMs) },
});
