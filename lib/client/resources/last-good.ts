// A live read while etcd is away: the console still holds its last good snapshot, and
// serves that revision pinned without asking etcd (lib/live/cache.ts `at`), so a page
// opened during an outage shows the last good data (under the banner) instead of an error.
import { ApiError, fetchJson, type QueryParams } from "../fetch-json";
import { fetchHealth, lastGoodRevision, noteEtcdUnavailable } from "./health";

function etcdAway(e: unknown): boolean {
  return e instanceof ApiError && (e.code === "etcd_unavailable" || e.code === "etcd_timeout");
}

/**
 * GET `path` live; when etcd is unreachable, the same read at the last good revision,
 * evaluated now (an explicit `now_ms`, so waits keep counting). Pinned reads are as asked.
 * `fallback: false`: a refresh of data the page already holds fails instead, so the page
 * keeps what it has (a whole list is not replaced by part of one).
 */
export async function fetchLiveOrLastGood<T>(
  path: string,
  params: QueryParams,
  signal?: AbortSignal,
  opts: { fallback?: boolean } = {},
): Promise<T> {
  const pinned = params.revision !== null && params.revision !== undefined;
  try {
    return await fetchJson<T>(path, params, signal);
  } catch (e) {
    if (e instanceof ApiError && e.code === "etcd_unavailable") noteEtcdUnavailable();
    if (pinned || !etcdAway(e) || opts.fallback === false) throw e;
    let revision = lastGoodRevision();
    if (revision === null) revision = (await fetchHealth(signal).catch(() => null))?.snapshot?.revision ?? null;
    if (revision === null) throw e;
    return fetchJson<T>(path, { ...params, revision, now_ms: params.now_ms ?? Date.now() }, signal);
  }
}
