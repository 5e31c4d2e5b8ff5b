// Seeded evidence for the takeover tests (integration and e2e): decision-journal chunks, shadow-history samples one
// every 5 minutes with the canary's extras, and finished task records of exact durations.
import { chunkKey, encodeChunk, type JournalChunk } from "@/lib/journal/codec";
import type { TableState } from "@/lib/journal/entry";
import { uuidv7 } from "@/lib/schema/task-id";

const SAMPLE_STEP_MS = 300_000;

/** Sample k (k = 0 is the newest, a second before `now`): discovery misses fall from newest to oldest by one a sample. */
export function canarySampleAt(now: number, k: number) {
  const at_ms = now - 1000 - k * SAMPLE_STEP_MS;
  return {
    at_ms,
    revision: 1000 - k,
    outcomes: { discovery_miss: 240 - k, queued_only: 3, running: 2, placement_gap: 1, phantom_task: 0 },
    disagreements: 240 - k,
    placements_agree: k % 4 !== 0,
    tables: { discovery_miss: ["t/chronic", ...(k % 3 === 0 ? ["t/sometimes"] : [])], phantom_task: [] },
  };
}

export const sampleKv = (prefix: string, now: number, k: number): [string, string] => {
  const s = canarySampleAt(now, k);
  return [`${prefix}/console/shadow-history/${String(s.at_ms).padStart(15, "0")}`, JSON.stringify(s)];
};

/** merge_wal: done tasks of 1..20 s and 5 failed (2 s each: 25 durations, p50 the 13th = 8 s); compact: 30, 60, 90 s; one done task finished 2 h ago. */
export function taskKvs(prefix: string, now: number, target: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  let n = 0;
  const task = (kind: string, state: string, seconds: number, finishedAgoMs: number) => {
    const finished = now - finishedAgoMs;
    const started = finished - seconds * 1000;
    const id = uuidv7(started - 1000, 0x7000 + n++);
    out.push([
      `${prefix}/tasks/${id}`,
      JSON.stringify({
        id,
        kind,
        target,
        state,
        enqueued_at: started - 1000,
        started_at: started,
        finished_at: finished,
        ...(state === "failed" ? { error: "boom" } : {}),
      }),
    ]);
  };
  for (let s = 1; s <= 20; s++) task("merge_wal", "done", s, 60_000 + s * 1000);
  for (let i = 0; i < 5; i++) task("merge_wal", "failed", 2, 120_000);
  for (const s of [30, 60, 90]) task("compact", "done", s, 300_000);
  task("merge_wal", "done", 500, 2 * 3_600_000);
  return out;
}

/** A journal chunk as the sampler stores it (gzip; the key names its span, kind, entries and bytes). */
export function journalChunkKv(prefix: string, chunk: JournalChunk): [string, Buffer] {
  const bytes = encodeChunk(chunk);
  return [chunkKey(prefix, chunk, bytes.length, "seed"), bytes];
}

const planned: TableState = {
  class: "normal",
  verdict: { state: "would_skip", code: "no_free_slot", executor: null },
  write_turn: null,
  shadow_outcome: "placement_gap",
};

/** One evaluation entering `targets` (a checkpoint's first one: the whole plan). */
export const journalEvaluation = (revision: number, nowMs: number, targets: string[], removed: string[] = []) => ({
  revision,
  now_ms: nowMs,
  changed: new Map(targets.map((t) => [t, planned])),
  removed,
});
