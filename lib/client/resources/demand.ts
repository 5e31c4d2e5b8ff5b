// Demand (console-api.md `GET /api/v1/scheduler/demand`): keys + fetchers for the list,
// the whole fleet (every page via cursor) and one table.
import { fetchLiveOrLastGood } from "./last-good";
import type { DemandList, DemandOne } from "../api-types";
import type { QueryParams } from "../fetch-json";

const PATH = "/api/v1/scheduler/demand";
/** The largest page the API allows; 13,405 tables = 7 pages. */
export const FLEET_PAGE_LIMIT = 2000;

export const demandKeys = {
  all: ["demand"] as const,
  summary: (revision: number | null, params: QueryParams) => ["demand", "summary", revision ?? "live", params] as const,
  fleet: (revision: number | null) => ["demand", "fleet", revision ?? "live"] as const,
  fleetPages: (revision: number | null) => ["demand", "fleet-pages", revision ?? "live"] as const,
  table: (target: string, revision: number | null) => ["demand", "table", target, revision ?? "live"] as const,
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
  while (cursor) {
    const page = await fetchDemandPage(
      { limit: FLEET_PAGE_LIMIT, include_idle: true, cursor, revision: first.revision, now_ms: first.now_ms },
      signal,
    );
    tables.push(...page.tables);
    cursor = page.next_cursor;
  }
  return { ...first, tables, next_cursor: null };
}

export function fetchTable(target: string, revision: number | null, signal?: AbortSignal): Promise<DemandOne> {
  return fetchLiveOrLastGood<DemandOne>(PATH, { target, revision }, signal);
}

/** A page of the whole fleet; later pages pin the first page's revision and clock. */
export interface FleetPageParam {
  cursor: string | null;
  revision: number | null;
  now_ms: number | null;
}

export function fetchFleetPage(param: FleetPageParam, signal?: AbortSignal): Promise<DemandList> {
  return fetchDemandPage({ limit: FLEET_PAGE_LIMIT, include_idle: true, cursor: param.cursor, revision: param.revision, now_ms: param.now_ms }, signal);
}

export function nextFleetPage(page: DemandList): FleetPageParam | null {
  return page.next_cursor ? { cursor: page.next_cursor, revision: page.revision, now_ms: page.now_ms } : null;
}
