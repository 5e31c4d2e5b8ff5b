// The reasons view's read of a chunk (./reasons.ts): each evaluation's tables with the code
// each held — `placed` or its skip code; null for a table that is not due — and its
// removals, taken straight from the stored rows. No entry is built: a full read builds
// every table's entry (class, verdict, write turn, outcome, demand facts, marks) in a Map
// per evaluation, and that was ~4/5 of an overnight reasons read. The decode-time rule is a
// full read's (./rows.ts `stateReader`): a chunk naming a class, verdict code or shadow
// outcome this console does not know, or a placed row naming no executor, is refused whole,
// so both reads refuse the same chunks (./verdict-codes.test.ts).
import { CLASS_NAMES, OUTCOMES, WHY_NOT_CODES, type ReasonCode } from "@/lib/schema/codes";
import type { ChunkKind } from "@/lib/schema/keys";
import { decodeChunk, type JournalChunk } from "./codec";
import type { TableState } from "./entry";
import { JournalDecodeError } from "./rows";
import { isSectioned, openedSections, sectionIndex } from "./sections";

/**
 * "Due" as scheduler-model.md §6.2 names it: a non-tail scored table. The entry holds the
 * class, not the score; an `idle` table has nothing pending and is not scored, so both
 * `tail` and `idle` are left out.
 */
export const isDue = (s: TableState) => s.class !== "tail" && s.class !== "idle";

/** the code a due table holds: `placed` for would_place, else its skip code */
export const codeOf = (s: TableState): ReasonCode => (s.verdict.state === "would_place" ? "placed" : s.verdict.code);

/** One evaluation as the reasons view reads it: `codes[i]` is what `targets[i]` held (null: not due). */
export interface CodeEvaluation {
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

const KNOWN_CLASSES: ReadonlySet<string> = new Set(CLASS_NAMES);
const KNOWN_CODES: ReadonlySet<string> = new Set(WHY_NOT_CODES);
const KNOWN_OUTCOMES: ReadonlySet<string> = new Set(OUTCOMES);
const NOT_DUE: ReadonlySet<string> = new Set(["tail", "idle"]);

const refused = (what: string) => new JournalDecodeError(`not a journal chunk: ${what}`);

/** The chunk's stored form read for the reasons view (version 1 through a full read). */
export function decodeCodes(bytes: Buffer): CodeChunk {
  if (!isSectioned(bytes)) return codesOf(decodeChunk(bytes));
  const { header: h, kind, sections } = openedSections(bytes);
  const s = h.s;
  const str = (i: unknown): unknown => s[i as number];
  const cursor = sections.map(() => ({ row: 0, removal: 0 }));
  const evaluations = h.e.map(([revision, now_ms, rows, removals]): CodeEvaluation => {
    const targets: string[] = [];
    const codes: (ReasonCode | null)[] = [];
    for (let k = 0; k < rows.length; k++) {
      const i = sectionIndex(rows.charCodeAt(k), h.b);
      const sec = sections[i];
      const row = sec.r[cursor[i].row++];
      if (!Array.isArray(row)) throw refused("a row is missing");
      const target = sec.t[row[0] as number];
      if (typeof target !== "string") throw refused("a row names no table");
      const cls = str(row[1]);
      if (typeof cls !== "string" || !KNOWN_CLASSES.has(cls)) throw refused(`unknown class ${JSON.stringify(cls)}`);
      let code: ReasonCode;
      if (row[2] === 1) {
        if (typeof str(row[4]) !== "string") throw refused("a placed row names no executor");
        code = "placed";
      } else {
        const c = str(row[3]);
        if (typeof c !== "string" || !KNOWN_CODES.has(c)) throw refused(`unknown verdict code ${JSON.stringify(c)}`);
        code = c as ReasonCode;
      }
      const shadow = row[6] as number;
      if (!(shadow < 0)) {
        const o = str(shadow);
        if (typeof o !== "string" || !KNOWN_OUTCOMES.has(o))
          throw refused(`unknown shadow outcome ${JSON.stringify(o)}`);
      }
      targets.push(target);
      codes.push(NOT_DUE.has(cls) ? null : code);
    }
    const removed: string[] = [];
    for (let k = 0; k < removals.length; k++) {
      const i = sectionIndex(removals.charCodeAt(k), h.b, "a removal");
      if (i === 0) throw refused("a removal is out of place");
      const sec = sections[i];
      if (cursor[i].removal >= sec.x.length) throw refused("a removal is missing");
      const target = sec.t[sec.x[cursor[i].removal++] as number];
      if (typeof target !== "string") throw refused("a row names no table");
      removed.push(target);
    }
    return { revision, now_ms, targets, codes, removed };
  });
  sections.forEach((sec, i) => {
    if (cursor[i].row !== sec.r.length || cursor[i].removal !== sec.x.length)
      throw refused("a section holds rows no evaluation names");
  });
  return { kind, from_ms: h.f, to_ms: h.t, evaluations };
}
