// The reasons view's read of a chunk (./reasons.ts): each evaluation's tables with the code
// each held — `placed` or its skip code; null for a table that is not due — and its
// removals: the full read's walk (./sections.ts `walkSectioned`), each row read bare. A full
// read builds every table's whole entry (demand facts, marks too) in a Map per evaluation,
// and that was ~4/5 of an overnight reasons read. The decode-time rule is the full read's
// own (./rows.ts `stateReader`), so both reads refuse the same chunks (./verdict-codes.test.ts).
import type { ReasonCode } from "@/lib/schema/codes";
import type { ChunkKind } from "@/lib/schema/keys";
import { decodeChunk, type JournalChunk } from "./codec";
import type { TableState } from "./entry";
import { stateReader } from "./rows";
import { isSectioned, walkSectioned } from "./sections";

/**
 * "Due" as scheduler-model.md §6.2 names it: a non-tail scored table. The entry holds the
 * class, not the score; an `idle` table has nothing pending and is not scored, so both
 * `tail` and `idle` are left out.
 */
export const isDue = (s: TableState) => s.class !== "tail" && s.class !== "idle";

/** the code a due table holds: `placed` for would_place, else its skip code */
export const codeOf = (s: TableState): ReasonCode => (s.verdict.state === "would_place" ? "placed" : s.verdict.code);

/** One evaluation as the reasons view reads it: `codes[i]` is what `targets[i]` held (null: not due). */
interface CodeEvaluation {
  revision: number;
  now_ms: number;
  targets: string[];
  codes: (ReasonCode | null)[];
  removed: string[];
}

export interface CodeChunk {
  kind: ChunkKind;
  from_ms: number;
  to_ms: number;
  evaluations: CodeEvaluation[];
}

/** A decoded chunk as the reasons view reads it. */
export function codesOf(chunk: JournalChunk): CodeChunk {
  return {
    kind: chunk.kind,
    from_ms: chunk.from_ms,
    to_ms: chunk.to_ms,
    evaluations: chunk.evaluations.map((ev) => {
      const targets: string[] = [];
      const codes: (ReasonCode | null)[] = [];
      for (const [target, s] of ev.changed) {
        targets.push(target);
        codes.push(isDue(s) ? codeOf(s) : null);
      }
      return { revision: ev.revision, now_ms: ev.now_ms, targets, codes, removed: [...ev.removed] };
    }),
  };
}

/** The chunk's stored form read for the reasons view (version 1 through a full read). */
export function decodeCodes(bytes: Buffer): CodeChunk {
  if (!isSectioned(bytes)) return codesOf(decodeChunk(bytes));
  // each row read bare (the entry without its demand facts and marks), under the full read's rule
  const walked = walkSectioned(bytes, (strings) => {
    const read = stateReader(strings);
    return (row): ReasonCode | null => {
      const st = read(row, 1, true);
      return isDue(st) ? codeOf(st) : null;
    };
  });
  return {
    kind: walked.kind,
    from_ms: walked.from_ms,
    to_ms: walked.to_ms,
    evaluations: walked.evaluations.map(({ revision, now_ms, targets, rows, removed }) => ({
      revision,
      now_ms,
      targets,
      codes: rows,
      removed,
    })),
  };
}
