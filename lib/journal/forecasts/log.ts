// The writer's forecasts in memory between writes (./sampler.ts makes them): evaluations go
// in, `drain` hands them out as one chunk per flush; the first chunk of a term, or the first
// after a write that failed, is marked with the gap before it (`lost` drops what was not
// written). Pure: times are parameters.
import type { ForecastChunk, ForecastChunkKind, ForecastEvaluation } from "./records";

type Restart = Exclude<ForecastChunkKind, "delta">;

export class ForecastLog {
  private pending: ForecastEvaluation[] = [];
  /** the end of the last chunk handed out (null: the next one starts after a gap) */
  private handedTo: number | null = null;
  private restart: Restart = "after_no_sampler";

  observe(ev: ForecastEvaluation): void {
    const last = this.pending.at(-1)?.now_ms ?? this.handedTo ?? -Infinity;
    if (ev.now_ms < last) return; // evaluations go in forward only
    this.pending.push(ev);
  }

  /** The chunk to write now (null: nothing evaluated since the last one). */
  drain(): ForecastChunk | null {
    const evaluations = this.pending.filter((e) => e.outcomes.length > 0 || e.forecasts.length > 0);
    const tip = this.pending.at(-1);
    this.pending = [];
    if (!tip) return null;
    const from = this.handedTo ?? evaluations[0]?.now_ms ?? tip.now_ms;
    const chunk: ForecastChunk = {
      kind: this.handedTo === null ? this.restart : "delta",
      from_ms: from,
      to_ms: Math.max(from, tip.now_ms),
      evaluations,
    };
    this.handedTo = chunk.to_ms;
    return chunk;
  }

  /** What was not written is dropped; the next chunk starts after a gap with this reason. */
  lost(reason: "no_sampler" | "etcd_unavailable"): void {
    this.pending = [];
    this.handedTo = null;
    this.restart = reason === "no_sampler" ? "after_no_sampler" : "after_etcd_unavailable";
  }
}
