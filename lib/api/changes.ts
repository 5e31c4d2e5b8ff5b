import "server-only";
// GET /api/v1/revisions/change: "step back / forward one change" (console-api.md "Time").
// The neighbouring revision at which one of the keys a page shows was written:
// * back from R: the newest mod_revision among those keys as they were at R − 1;
// * forward from R: the oldest mod_revision after R among the keys now, then again at the
//   revision just before it until nothing older after R remains (a key written twice
//   after R shows only its last write now).
// The console's own keys (`P/console/`: clock samples, the election) are never a change.
// Deletions are not found (a deleted key has no mod_revision left to read).
import type { ChangeQuery, RevisionTime } from "@/lib/schema/api/revisions";
import { etcdClient, etcdPrefix } from "@/lib/etcd/client";
import { readRange, type RangeQuery } from "@/lib/etcd/key-history";
import { currentRevision } from "@/lib/etcd/paged-read";
import { ApiError } from "./errors";
import { ownKeys } from "./history";
import { revisionClock } from "./revision-clock";

const FLEET = ["demand-events/", "demand/", "executors/", "assignments/", "leader", "policies/", "queue/", "running/", "target-locks/", "merge-executions/", "merge-progress/"];

const SCOPES: Record<Exclude<ChangeQuery["scope"], "table">, string[]> = {
  overview: FLEET,
  tables: ["demand-events/", "demand/", "assignments/", "policies/", "target-locks/", "merge-executions/"],
  executors: ["executors/", "assignments/"],
  shadow: ["demand-events/", "assignments/", "queue/", "running/"],
  failures: ["merge-failures/", "cooldown/"],
  policies: ["policies/"],
  audit: ["console/audit/"],
  skipped: FLEET,
};

function rangesOf(prefix: string, q: ChangeQuery): RangeQuery[] {
  if (q.scope === "table") {
    const own = ownKeys(prefix, q.target!);
    return [...own.single.map((key) => ({ key })), ...own.prefixes.map((key) => ({ key, prefix: true }))];
  }
  return SCOPES[q.scope].map((rel) => (rel.endsWith("/") ? { key: `${prefix}/${rel}`, prefix: true } : { key: `${prefix}/${rel}` }));
}

const MAX_STEPS = 64;

export async function neighbouringChange(q: ChangeQuery): Promise<RevisionTime> {
  const client = etcdClient();
  const prefix = etcdPrefix();
  const ranges = rangesOf(prefix, q);
  const newestModAt = async (revision: number, descend: boolean, minModRevision?: number) => {
    const found = await Promise.all(ranges.map((r) => readRange(client, prefix, { ...r, revision, limit: 1, byModRevision: true, descend, minModRevision })));
    const mods = found.flatMap((a) => a.kvs.map((kv) => kv.modRevision)).filter((m) => minModRevision === undefined || m >= minModRevision);
    if (mods.length === 0) return null;
    return descend ? Math.max(...mods) : Math.min(...mods);
  };
  let found: number | null = null;
  if (q.direction === "back") {
    if (q.revision > 1) found = await newestModAt(q.revision - 1, true);
  } else {
    const current = await currentRevision(client, prefix);
    let upper = q.revision < current ? await newestModAt(current, false, q.revision + 1) : null;
    for (let step = 0; upper !== null && step < MAX_STEPS; step++) {
      const earlier = upper - 1 > q.revision ? await newestModAt(upper - 1, false, q.revision + 1) : null;
      if (earlier === null) break;
      upper = earlier;
    }
    found = upper;
  }
  if (found === null) throw new ApiError(404, "not_found", `nothing on this page changed ${q.direction === "back" ? "before" : "after"} revision ${q.revision}`);
  return revisionClock().timeOf(found);
}
