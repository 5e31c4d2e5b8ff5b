import "server-only";
// The diff's sides read from the decision journal (console-api.md "The decision journal":
// "the diff between two moments is answered from the journal where covered"). Each side is
// an evaluation the live plan made (lib/journal/moment.ts): the revision it read and the
// clock it ran at, so it is the pinned plan at `?revision=&now_ms=` of that side. Only the
// chunks around each moment are fetched (lib/journal/window.ts `chunkRange`).
import type { ChunkMeta } from "@/lib/journal/codec";
import { journalMetas, readChunks } from "@/lib/journal/reader";
import { momentOf, type JournalMoment, type Moment } from "@/lib/journal/moment";
import { chunkRange, coveredSpans } from "@/lib/journal/window";
import { revisionClock } from "@/lib/live/revision-clock";

/** how long after a revision's write the live plan may first evaluate it (watch delay, a busy plan) */
const EVALUATED_WITHIN_MS = 120_000;

async function readMoment(metas: readonly ChunkMeta[], moment: Moment): Promise<JournalMoment | null> {
  const spans = coveredSpans(metas);
  let fromMs: number;
  let toMs: number;
  if ("at_ms" in moment) {
    // a time in a gap, before the journal's start or past its last write is not the journal's
    if (!spans.some((s) => s.from_ms <= moment.at_ms && moment.at_ms <= s.to_ms)) return null;
    fromMs = toMs = moment.at_ms;
  } else {
    const t = await revisionClock().timeOf(moment.revision);
    if (t.at_ms === null) return null;
    fromMs = t.at_ms - (t.error_ms ?? 0);
    toMs = t.at_ms + (t.error_ms ?? 0) + EVALUATED_WITHIN_MS;
  }
  const range = chunkRange(metas, fromMs, toMs);
  if (range === null) return null;
  const chunks = await readChunks([range]);
  // an unreadable chunk: that side is re-planned
  return chunks === null
    ? null
    : momentOf(
        chunks.map((c) => c.chunk),
        moment,
      );
}

/** Each moment's evaluation from the journal (null where it does not cover that moment). */
export async function journalMoments(moments: readonly Moment[]): Promise<(JournalMoment | null)[]> {
  const metas = await journalMetas();
  if (metas.length === 0) return moments.map(() => null);
  return Promise.all(moments.map((m) => readMoment(metas, m)));
}
