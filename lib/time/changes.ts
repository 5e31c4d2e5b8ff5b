import "server-only";
// GET /api/v1/revisions/change: "step back / forward one change" (console-api.md "Time").
// The neighbouring revision at which one of the keys a page shows was written:
// * back from R: the newest mod_revision among those keys as they were at R − 1;
// * forward from R: the first revision X after R at which a key shown was written in (R, X]
//   (a binary search: a key written twice after R shows only its last write at the head).
// * a deletion has no mod_revision left to read, so it is found by counting: a range that
//   holds fewer keys at the later end of the interval than at the earlier lost a key in
//   between, and a binary search over counts finds the revision. A key both created and
//   deleted inside the interval leaves the counts equal and is not found (etcd answers
//   "what changed between two revisions" only through a watch).
// The console's own keys (`P/console/`: clock samples, the election) are never a change.
import type { ChangeQuery, RevisionTime } from "@/lib/schema/api/revisions";
import { etcdClient, etcdPrefix } from "@/lib/etcd/client";
import { readRange, type RangeQuery } from "@/lib/etcd/key-history";
import { policyKeys } from "@/lib/schema/keys";
import { FAMILIES, familyPrefix } from "@/lib/snapshot/families";
import type { FamilyName } from "@/lib/snapshot/types";
import { currentRevision } from "@/lib/etcd/paged-read";
import { ApiError } from "@/lib/schema/api/errors";
import { ownKeys } from "@/lib/journal/inputs";
import { RevisionCompacted } from "@/lib/etcd/errors";
import { revisionClock } from "@/lib/live/revision-clock";
import { pingEtcd } from "@/lib/live/etcd-ping";
import { overviewStep } from "./overview-step";

/** Every family the console reads: what the overview and the skipped-records page show. */
const FLEET: readonly FamilyName[] = FAMILIES.map((f) => f.name);

const SCOPES: Record<Exclude<ChangeQuery["scope"], "table" | "audit">, readonly FamilyName[]> = {
  overview: FLEET,
  tables: ["demand-events", "demand", "assignments", "policies", "target-locks", "merge-executions"],
  executors: ["executors", "assignments"],
  shadow: ["demand-events", "assignments", "queue", "running"],
  failures: ["merge-failures", "cooldown"],
  policies: ["policies"],
  skipped: FLEET,
};

function rangesOf(prefix: string, q: ChangeQuery): RangeQuery[] {
  if (q.scope === "table") {
    const own = ownKeys(prefix, q.target!);
    return [...own.single.map((key) => ({ key })), ...own.prefixes.map((key) => ({ key, prefix: true }))];
  }
  if (q.scope === "audit") return [{ key: policyKeys.audit(prefix), prefix: true }];
  return SCOPES[q.scope].map((name) => {
    const family = FAMILIES.find((f) => f.name === name)!;
    // a family is a prefix ("executors/") or one key and its siblings ("leader", "leader-token")
    return { key: familyPrefix(prefix, family), prefix: true };
  });
}

const MAX_STEPS = 64;

type Client = ReturnType<typeof etcdClient>;

/** keys in the range at `revision`; null when compaction took that revision */
async function countAt(client: Client, prefix: string, range: RangeQuery, revision: number): Promise<number | null> {
  try {
    return (await readRange(client, prefix, { ...range, revision, countOnly: true })).count;
  } catch (e) {
    if (e instanceof RevisionCompacted) return null;
    throw e;
  }
}

/**
 * The first revision in (lo, hi] whose count is `settled`, given that count(lo) is not and
 * count(hi) is: a binary search, sound because only deletions change the count in between
 * (see the header), so the count only falls.
 */
async function deletionIn(
  client: Client,
  prefix: string,
  range: RangeQuery,
  lo: number,
  hi: number,
  settled: (count: number) => boolean,
): Promise<number> {
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (settled((await countAt(client, prefix, range, mid))!)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * A deletion in (from, to] of a key that existed at `from`, over every range: the newest
 * (stepping back) or the oldest (stepping forward).
 */
async function deletionBetween(
  client: Client,
  prefix: string,
  ranges: RangeQuery[],
  from: number,
  to: number,
  which: "newest" | "oldest",
): Promise<number | null> {
  if (to <= from) return null;
  const found = await Promise.all(
    ranges.map(async (range) => {
      const [before, after] = await Promise.all([
        countAt(client, prefix, range, from),
        countAt(client, prefix, range, to),
      ]);
      if (before === null || after === null || before <= after) return null;
      // the newest: where the count reaches its final value; the oldest: where it first drops
      return deletionIn(client, prefix, range, from, to, which === "newest" ? (n) => n <= after : (n) => n < before);
    }),
  );
  const revisions = found.filter((r): r is number => r !== null);
  if (revisions.length === 0) return null;
  return which === "newest" ? Math.max(...revisions) : Math.min(...revisions);
}

export async function neighbouringChange(q: ChangeQuery): Promise<RevisionTime> {
  // the ping first: it fails within 1.5 s when etcd is away, where the reads below would each
  // wait out a call's deadline
  await pingEtcd(etcdClient(), etcdPrefix());
  let found = await keyChange(q);
  // the overview reads every family: a write is a candidate, a change of what it states the step
  if (found !== null && q.scope === "overview") {
    const bounds = {
      oldest: await revisionClock().oldestReadable(),
      newest: await currentRevision(etcdClient(), etcdPrefix()),
    };
    found = await overviewStep(q.revision, q.direction, found, bounds, (revision) =>
      keyChange({ ...q, revision, direction: "back" }),
    );
  }
  if (found === null)
    throw new ApiError(
      404,
      "not_found",
      `nothing on this page changed ${q.direction === "back" ? "before" : "after"} revision ${q.revision}`,
    );
  return revisionClock().timeOf(found);
}

/** The neighbouring revision at which a key the page shows was written or deleted (see the header). */
async function keyChange(q: ChangeQuery): Promise<number | null> {
  const client = etcdClient();
  const prefix = etcdPrefix();
  const ranges = rangesOf(prefix, q);
  const newestModAt = async (revision: number, descend: boolean, minModRevision?: number) => {
    const found = await Promise.all(
      ranges.map((r) =>
        readRange(client, prefix, { ...r, revision, limit: 1, byModRevision: true, descend, minModRevision }),
      ),
    );
    const mods = found
      .flatMap((a) => a.kvs.map((kv) => kv.modRevision))
      .filter((m) => minModRevision === undefined || m >= minModRevision);
    if (mods.length === 0) return null;
    return descend ? Math.max(...mods) : Math.min(...mods);
  };
  let found: number | null = null;
  if (q.direction === "back") {
    if (q.revision > 1) {
      const written = await newestModAt(q.revision - 1, true);
      // a deletion after the newest write (or anywhere readable, when nothing is left)
      const from = Math.max(written ?? 0, await revisionClock().oldestReadable());
      const deleted = await deletionBetween(client, prefix, ranges, from, q.revision - 1, "newest");
      found = deleted ?? written;
    }
  } else {
    const current = await currentRevision(client, prefix);
    // "a key shown here was written in (R, X] and is still there at X" only turns true as X
    // rises: a binary search over X finds the first write after R even when keys (heartbeats)
    // are rewritten thousands of times before the head (issue 27: ▶ on /executors)
    let upper = q.revision < current ? await newestModAt(current, false, q.revision + 1) : null;
    if (upper !== null) {
      let lo = q.revision;
      for (let step = 0; upper - lo > 1 && step < MAX_STEPS; step++) {
        const mid = lo + Math.floor((upper - lo) / 2);
        const written = await newestModAt(mid, false, q.revision + 1);
        if (written === null) lo = mid;
        else upper = Math.min(mid, written);
      }
    }
    // a deletion before that write (or before now, when nothing was written after R)
    const deleted = await deletionBetween(
      client,
      prefix,
      ranges,
      q.revision,
      upper === null ? current : upper - 1,
      "oldest",
    );
    found = deleted ?? upper;
  }
  return found;
}
