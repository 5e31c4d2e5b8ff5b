import "server-only";
// Where each unfinished execution last made progress in etcd's history (console-api.md
// fourth version, "The same answer from any replica, at any uptime"): the revision at which
// its `merge-progress/<id>` sequence last increased (scheduler-model.md §7.1, §12: only an
// increase is progress), or, before any progress record, the revision at which its
// `merge-executions/` record first named it (when it started). A key's value at revision R
// carries its mod_revision M, and the value before it is the one current at M − 1: the walk
// steps back through the key's versions until the one that increased (lib/etcd/key-history.ts
// `readKeysAt`, every execution's walk in step, one txn a round).
//
// The answer is a function of etcd alone. What this process watched only makes it faster:
// each walked version's answer is kept by (execution, mod_revision), and a watch event that
// came with its previous value (`learn`) gives the answer a walk from it would give. Where
// compaction took the revision an answer rests on, it is `at_most` the compaction revision,
// however it was found, so a replica that watched the increase and one started after the
// compaction say the same.
import type { EtcdClient } from "@/lib/etcd/client";
import { RevisionCompacted } from "@/lib/etcd/errors";
import { readKeysAt, readRange, type KeyAt } from "@/lib/etcd/key-history";
import type { RawKv } from "@/lib/etcd/paged-read";
import { UNFINISHED_PHASES } from "@/lib/planner/plan/write-turn";
import { LRUCache } from "lru-cache";
import { parseExecution } from "@/lib/schema/executions";
import { compactProbeKey } from "@/lib/schema/keys";
import { parseMergeProgress } from "@/lib/schema/progress";
import type { FleetSnapshot } from "@/lib/snapshot/types";

/** An execution's last progress as a revision (dated by the caller with the revision clock). */
export interface ProgressPoint {
  executionId: string;
  /** the progress record's sequence, null when there is none */
  sequence: number | null;
  /** the revision of the last increase (or of the start); `at_most`: the compaction revision */
  revision: number;
  bound: "exact" | "at_most";
}

/** A walk's answer: the revision looked for (`created`: the key's creation there), or "cut" by compaction. */
type Found = { revision: number; created: boolean } | "cut";

type Kind = "progress" | "start";
/** What a version says for the walk: its sequence (`progress`), or the execution it names (`start`). */
type Mark = number | string | null;

/** One walk: a key followed back from one version until the version looked for. */
interface Walk {
  kind: Kind;
  executionId: string;
  key: string;
  /** the version looked at (its create_revision is not known for the view's own version) */
  at: { modRevision: number; mark: Mark; createRevision: number | null };
  /** the view's revision (its own version of the key can be read there) */
  viewRevision: number;
  /** the versions passed over, each with the answer found */
  passed: number[];
  found: Found | null;
}

/** answers kept: a few per running execution (one per increase); an evicted one is walked again */
const KEPT = 8192;
/**
 * Whether compaction took what an answer rests on is asked again after this long (a
 * compaction sends no event): a replica may say `exact` this long after a compaction that
 * another already says `at_most` for.
 */
export const COMPACTION_RECHECK_MS = 1000;

type Row = { executionId: string; sequence: number | null; found: Found };

function markOf(kind: Kind, value: string): Mark {
  if (kind === "progress") {
    const p = parseMergeProgress(value);
    return p.ok ? p.value.sequence : null;
  }
  const e = parseExecution(value);
  return e.ok ? e.value.id : null;
}

/** Whether a version marked `mark` is what the walk looks for after one marked `before`: a higher sequence, or the first naming the execution. */
function isPoint(kind: Kind, executionId: string, mark: Mark, before: Mark): boolean {
  if (kind === "start") return before !== executionId;
  return typeof mark === "number" && (typeof before !== "number" || mark > before);
}

export class ProgressHistory {
  private readonly answers = new LRUCache<string, Found>({ max: KEPT });
  /** the walks' answers per list of executions (the live store hands out the same list while that family is unchanged) */
  private readonly walked = new WeakMap<object, { progress: object; rows: Promise<Row[]> }>();
  /** the last compaction check: revisions from `lowest` on were all readable (`compact` 0), or `compact` was the compaction */
  private checked: { lowest: number; compact: number; atMs: number } | null = null;

  constructor(
    private readonly client: EtcdClient,
    private readonly prefix: string,
  ) {}

  /**
   * What a watched put teaches when its previous value came with it (null: the key did not
   * exist): the answer a walk from it would give. Without the previous value, nothing.
   */
  learn(kind: Kind, executionId: string, kv: RawKv, prev: RawKv | null | undefined): void {
    if (prev === undefined) return;
    const mark = markOf(kind, kv.value.toString("utf8"));
    if (kind === "start" && mark !== executionId) return;
    const key = keyOf(kind, executionId, kv.modRevision);
    if (prev === null) this.answers.set(key, found(kv.modRevision, true));
    else if (isPoint(kind, executionId, mark, markOf(kind, prev.value.toString("utf8"))))
      this.answers.set(key, found(kv.modRevision, false));
    else {
      const before = this.answers.get(keyOf(kind, executionId, prev.modRevision));
      if (before !== undefined) this.answers.set(key, before);
    }
  }

  /**
   * The last progress of every unfinished execution of `snapshot`, as etcd's history tells
   * it; `final`: no later compaction can change it (every answer is a key's creation).
   */
  async pointsOf(snapshot: FleetSnapshot): Promise<{ points: ProgressPoint[]; final: boolean }> {
    const lists = snapshot.mergeExecutions;
    let memo = this.walked.get(lists);
    if (!memo || memo.progress !== snapshot.mergeProgress) {
      const made = { progress: snapshot.mergeProgress, rows: this.rowsOf(snapshot) };
      made.rows.catch(() => this.walked.get(lists) === made && this.walked.delete(lists));
      this.walked.set(lists, (memo = made));
    }
    const rows = await memo.rows;
    return { points: await this.bounded(rows), final: rows.every((r) => r.found !== "cut" && r.found.created) };
  }

  private async rowsOf(snapshot: FleetSnapshot): Promise<Row[]> {
    const progress = new Map(snapshot.mergeProgress.map((p) => [p.executionId, p]));
    const walks: (Walk & { sequence: number | null })[] = [];
    for (const e of snapshot.mergeExecutions) {
      if (!UNFINISHED_PHASES.has(e.execution.phase)) continue;
      const id = e.execution.id;
      const p = progress.get(id);
      walks.push({
        kind: p ? "progress" : "start",
        executionId: id,
        sequence: p?.progress.sequence ?? null,
        key: p ? p.key : e.key,
        at: {
          modRevision: p ? p.modRevision : e.modRevision,
          mark: p ? p.progress.sequence : id,
          createRevision: null,
        },
        viewRevision: snapshot.revision,
        passed: [],
        found: null,
      });
    }
    await this.walk(walks);
    return walks.map((w) => ({ executionId: w.executionId, sequence: w.sequence, found: w.found! }));
  }

  /** Every walk to its answer, in step: one txn of reads a round for all walks still going. */
  private async walk(walks: Walk[]): Promise<void> {
    let going = this.settle(walks);
    while (going.length > 0) {
      const before = await readKeysAt(
        this.client,
        this.prefix,
        going.map((w) => ({ key: w.key, revision: w.at.modRevision - 1 })),
      );
      const unsure: Walk[] = [];
      going.forEach((w, i) => {
        if (before[i] === "compacted" && w.at.createRevision === null) unsure.push(w);
        else this.step(w, before[i]);
      });
      if (unsure.length > 0) {
        // compaction took the version before the view's own: that one is exact only if it created the key
        const own = await readKeysAt(
          this.client,
          this.prefix,
          unsure.map((w) => ({ key: w.key, revision: w.viewRevision })),
        );
        unsure.forEach((w, i) => {
          const kv = own[i];
          w.at.createRevision = kv === "compacted" || kv === null ? -1 : kv.createRevision;
          this.step(w, "compacted");
        });
      }
      going = this.settle(going);
    }
    for (const w of walks) for (const m of w.passed) this.answers.set(keyOf(w.kind, w.executionId, m), w.found!);
  }

  /** Answers what needs no read (kept, or the key's creation); the walks still going. */
  private settle(walks: Walk[]): Walk[] {
    return walks.filter((w) => {
      if (w.found !== null) return false;
      const kept = this.answers.get(keyOf(w.kind, w.executionId, w.at.modRevision));
      if (kept !== undefined) w.found = kept;
      else if (w.at.createRevision === w.at.modRevision || w.at.modRevision <= 1) {
        w.passed.push(w.at.modRevision);
        w.found = found(w.at.modRevision, true);
      }
      return w.found === null;
    });
  }

  /** One step back: the version before `w.at` decides, or becomes the one looked at. */
  private step(w: Walk, before: KeyAt): void {
    w.passed.push(w.at.modRevision);
    if (before === "compacted")
      w.found = w.at.createRevision === w.at.modRevision ? found(w.at.modRevision, true) : "cut";
    else if (before === null) w.found = found(w.at.modRevision, true);
    else {
      const mark = markOf(w.kind, before.value);
      if (isPoint(w.kind, w.executionId, w.at.mark, mark)) w.found = found(w.at.modRevision, false);
      else w.at = { modRevision: before.modRevision, mark, createRevision: before.createRevision };
    }
  }

  /**
   * Exact where etcd still holds what the answer rests on (a creation, or the version
   * before an increase); else at most the compaction revision, as a walk made now would
   * say: one read at the oldest revision an answer rests on tells whether any is compacted.
   */
  private async bounded(rows: Row[]): Promise<ProgressPoint[]> {
    const restsOn = rows.flatMap((r) => (r.found !== "cut" && !r.found.created ? [r.found.revision - 1] : []));
    const compact =
      restsOn.length > 0 || rows.some((r) => r.found === "cut")
        ? await this.compactionBelow(restsOn.length > 0 ? Math.min(...restsOn) : 1)
        : 0;
    return rows.map(({ executionId, sequence, found: f }) =>
      f !== "cut" && (f.created || f.revision - 1 >= compact)
        ? { executionId, sequence, revision: f.revision, bound: "exact" }
        : { executionId, sequence, revision: Math.max(1, compact), bound: "at_most" },
    );
  }

  /** The compaction revision when `lowest` is compacted, else 0 (one count-only read, reused briefly). */
  private async compactionBelow(lowest: number): Promise<number> {
    const c = this.checked;
    if (c && c.lowest === lowest && Date.now() - c.atMs < COMPACTION_RECHECK_MS) return c.compact;
    let compact = 0;
    try {
      await readRange(this.client, this.prefix, {
        key: compactProbeKey(this.prefix),
        revision: lowest,
        countOnly: true,
      });
    } catch (e) {
      if (!(e instanceof RevisionCompacted)) throw e;
      compact = Math.max(e.compactRevision, lowest + 1);
    }
    this.checked = { lowest, compact, atMs: Date.now() };
    return compact;
  }
}

const keyOf = (kind: Kind, executionId: string, modRevision: number) => `${kind}:${executionId}@${modRevision}`;
const found = (revision: number, created: boolean): Found => ({ revision, created });
