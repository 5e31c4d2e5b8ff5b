// One channel of pushed change-sets (issue 24, lib/scheduler/demand-stream.ts): the streams
// of one filter and sort. Each step makes ONE frame, the change-set from the listing of the
// last step to the new one, and writes the same bytes to every stream holding the last
// step's listing. A stream that joins, or reconnects behind, catches up: the frames kept
// since the listing it holds, else one frame made from it (null changes when its digest is
// gone: the page reads the listing again). Pure: the frames come from `StepSource`.

export interface StepSubscriber {
  /** the listing this stream's page holds once what was written to it is applied */
  at: string | null;
  write(frame: Uint8Array): void;
}

/** The listing of one plan, able to say itself as changes from another listing. */
export interface StepSource {
  listing: string;
  /** the frame that takes a page holding `since` to `listing` (`since` null: one that holds none) */
  frameFrom(since: string | null): Uint8Array;
}

interface Step {
  from: string | null;
  frame: Uint8Array;
}

export class StepChannel<S extends StepSubscriber = StepSubscriber> {
  /** the listing of the last step */
  listing: string | null = null;
  readonly subscribers = new Set<S>();
  private steps: Step[] = [];
  private source: StepSource | null = null;

  constructor(private readonly kept = 32) {}

  /** What a stream holding `since` is sent to reach the last step's listing (nothing when it holds it). */
  catchUp(since: string | null): Uint8Array[] {
    if (this.source === null || since === this.listing) return [];
    const from = since === null ? -1 : this.steps.findIndex((s) => s.from === since);
    if (from >= 0) return this.steps.slice(from).map((s) => s.frame);
    return [this.source.frameFrom(since)];
  }

  /** A stream opens (or reopens) holding `sub.at`: it is caught up now when the channel has stepped. */
  join(sub: S): void {
    for (const f of this.catchUp(sub.at)) sub.write(f);
    if (this.listing !== null) sub.at = this.listing;
    this.subscribers.add(sub);
  }

  /** One step to `source`'s listing; true when it made a frame (the listing moved). */
  step(source: StepSource): boolean {
    // a channel's first step starts from the listing its first stream holds
    const since = this.listing ?? [...this.subscribers][0]?.at ?? null;
    this.source = source;
    let moved = false;
    if (source.listing !== since) {
      const frame = source.frameFrom(since);
      this.steps.push({ from: since, frame });
      if (this.steps.length > this.kept) this.steps.shift();
      for (const sub of this.subscribers)
        if (sub.at === since) {
          sub.write(frame); // the same bytes to every stream at the last step
          sub.at = source.listing;
        }
      moved = true;
    }
    this.listing = source.listing;
    // streams that joined between steps at another listing
    for (const sub of this.subscribers)
      if (sub.at !== this.listing) {
        for (const f of this.catchUp(sub.at)) sub.write(f);
        sub.at = this.listing;
      }
    return moved;
  }
}
