// A journal chunk as the console holds it in memory; its stored forms are ./codec.ts
// (version 1) and ./sections.ts (version 2).
import type { ChunkKind } from "@/lib/schema/keys";
import type { StateDiff } from "./entry";
import type { Capacities } from "./inputs";

/** One evaluation's changes (a checkpoint's first one: every table). */
export interface ChunkEvaluation extends StateDiff {
  revision: number;
  now_ms: number;
  /** the executors' capacity at the revision (./inputs.ts; absent: not marked) */
  capacities?: Capacities;
  /**
   * a one-table read only (./codec.ts `decodeChunk`): every table this evaluation placed, in
   * the order written; `changed` then holds the read table's row alone
   */
  placed?: readonly string[];
}

export interface JournalChunk {
  kind: ChunkKind;
  /** the span covered: a delta continues from the previous chunk's `to_ms`; a checkpoint from its first evaluation */
  from_ms: number;
  to_ms: number;
  evaluations: ChunkEvaluation[];
}
