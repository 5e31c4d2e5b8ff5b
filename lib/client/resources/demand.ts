// Demand (console-api.md `GET /api/v1/scheduler/demand`): keys + fetchers for the list,
// the whole fleet (every page via cursor, then only its changes: `?since=`) and one table.
import { fetchLiveOrLastGood } from "./last-good";
import { tableRead } from "./first-reads";
import type { DemandChanges, DemandList, DemandOne, TableSummary } from "../api-types";
import { buildQuery, type QueryParams } from "../fetch-json";

const PATH = "/api/v1/scheduler/demand";
/** The largest page the API allows; 13,405 tables = 7 pages. */
export const FLEET_PAGE_LIMIT = 2000;

export const demandKeys = {
  all: ["demand"] as const,
  summary: (revision: number | null, params: QueryParams) => ["demand", "summary", revision ?? "live", params] as const,
  fleet: (revision: number | null) => ["demand", "fleet", revision ?? "live"] as const,
  fleetPages: (revision: number | null) => ["demand", "fleet-pages", revision ?? "live"] as const,
  fleetListing: (revision: number | null) => ["demand", "fleet-listing", revision ?? "live"] as const,
  table: (target: string, revision: number | null) => tableRead(target, revision).key,
};

export function fetchDemandPage(params: QueryParams, signal?: AbortSignal): Promise<DemandList> {
  return fetchLiveOrLastGood<DemandList>(PATH, params, signal);
}

/**
 * Every table, idle included, read page by page at ONE revision: the first page fixes
 * the revision and later pages pin it, so the list is one consistent snapshot.
 */
export async function fetchFleet(revision: number | null, signal?: AbortSignal): Promise<DemandList> {
  const first = await fetchDemandPage({ limit: FLEET_PAGE_LIMIT, include_idle: true, revision }, signal);
  const tables = [...first.tables];
  let cursor = first.next_cursor;
  let listing = first.listing;
  while (cursor) {
    const page = await fetchDemandPage(
      { limit: FLEET_PAGE_LIMIT, include_idle: true, cursor, revision: first.revision, now_ms: first.now_ms },
      signal,
    );
    tables.push(...page.tables);
    cursor = page.next_cursor;
    listing = page.listing;
  }
  // the last page's listing: the server keeps a listing's digest once its last page is sent
  return { ...first, tables, next_cursor: null, listing };
}

/**
 * Every table at a newer plan, from the whole fleet `base` the page holds: only the changes
 * travel. While etcd is away the refresh fails and the page keeps the whole list it holds,
 * as of its last good revision (not the first pages of a read at that revision).
 */
export async function refreshFleet(base: DemandList | undefined, signal?: AbortSignal): Promise<DemandList> {
  if (base) {
    const next = await fetchLiveOrLastGood<DemandList>(PATH, { include_idle: true, since: base.listing }, signal, {
      fallback: false,
    });
    const held = withChanges(base, next as unknown as DemandChanges);
    if (held) return held;
  }
  // the server no longer knows the base (restart, another replica, evicted): read it all again
  return fetchFleet(null, signal);
}

/**
 * The whole listing `base` becomes with one change-set (a `?since=` answer, or one event of
 * the demand stream); null when the change-set is not for the listing `base` is: read again.
 */
export function withChanges(base: DemandList, next: DemandChanges): DemandList | null {
  const { changes, ...envelope } = next;
  if (!changes || changes.since !== base.listing) return null;
  const tables = applyChanges(base.tables, changes, envelope.matched);
  return tables && { ...envelope, tables, next_cursor: null };
}

/** The demand stream of the whole fleet (idle included) from the listing the page holds. */
export const fleetStreamUrl = (since: string | undefined) =>
  `${PATH}/stream${buildQuery({ include_idle: true, since })}`;

/**
 * The listing `base` becomes with `changes` (lib/schema/api/demand.ts demandChanges): drop
 * the removed and the sent targets, put each sent row at its index and fill the other
 * places with the rest in their old order, then patch the moving fields (wait, score,
 * place in line) of the rows the patches name, move the ranks of the rows the shifts
 * name, and give every row in line its kind's count. Null when the changes do not fit
 * this base.
 */
export function applyChanges(
  base: readonly TableSummary[],
  changes: NonNullable<DemandChanges["changes"]>,
  matched: number,
): TableSummary[] | null {
  // one pass: each place takes the row sent for it, else the next row of `base` not dropped
  const { rows, removed } = changes;
  const drop = rows.length + removed.length > 0 ? new Set(removed) : null;
  for (const r of rows) drop!.add(r.table.target);
  const out: TableSummary[] = new Array(matched);
  let b = 0;
  let r = 0;
  for (let i = 0; i < matched; i++) {
    const sent = rows[r];
    if (sent && sent.at === i) {
      out[i] = sent.table;
      r++;
      continue;
    }
    if (drop) while (b < base.length && drop.has(base[b].target)) b++;
    if (b >= base.length) return null;
    out[i] = base[b++];
  }
  if (r !== rows.length) return null;
  // every row of `base` left over must be one the changes dropped
  for (; b < base.length; b++) if (!drop?.has(base[b].target)) return null;
  for (const [at, wait_ms, score, rank, of] of changes.patches) {
    const row = out[at];
    if (!row) return null;
    out[at] = {
      ...row,
      wait_ms,
      score,
      position: row.position && rank !== null && of !== null ? { ...row.position, rank, of } : row.position,
    };
  }
  for (const [from, to, by] of changes.shifts) {
    if (from < 0 || to >= matched) return null;
    for (let at = from; at <= to; at++) {
      const row = out[at];
      if (!row.position) return null;
      out[at] = { ...row, position: { ...row.position, rank: row.position.rank + by } };
    }
  }
  for (let at = 0; at < matched; at++) {
    const { position } = out[at];
    if (!position) continue;
    const of = changes.lines[position.kind];
    if (of === undefined) return null;
    if (position.of !== of) out[at] = { ...out[at], position: { ...position, of } };
  }
  return out;
}

export function fetchTable(target: string, revision: number | null, signal?: AbortSignal): Promise<DemandOne> {
  const { path, params } = tableRead(target, revision);
  return fetchLiveOrLastGood<DemandOne>(path, params, signal);
}

/** A page of the whole fleet; later pages pin the first page's revision and clock. */
export interface FleetPageParam {
  cursor: string | null;
  revision: number | null;
  now_ms: number | null;
}

export function fetchFleetPage(param: FleetPageParam, signal?: AbortSignal): Promise<DemandList> {
  return fetchDemandPage(
    {
      limit: FLEET_PAGE_LIMIT,
      include_idle: true,
      cursor: param.cursor,
      revision: param.revision,
      now_ms: param.now_ms,
    },
    signal,
  );
}

export function nextFleetPage(page: DemandList): FleetPageParam | null {
  return page.next_cursor ? { cursor: page.next_cursor, revision: page.revision, now_ms: page.now_ms } : null;
}
