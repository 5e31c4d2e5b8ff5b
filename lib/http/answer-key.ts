import "server-only";
// What a cacheable answer's bytes depend on, as one cache key (./encoded-response.ts):
// the plan it was made from, the view that labels it (revision, read time, live/pinned,
// the clock and why), and the normalized query. Plans are told apart by identity: a new
// plan object (a re-plan after a watch change, or at a new `now`) is a new key even when
// its rows are the same, and the strong ETag (a hash of the bytes) then still matches.
import type { FleetView } from "@/lib/live/cache";
import type { Evaluation } from "@/lib/live/evaluation";
import { lazily } from "@/lib/util/lazily";

interface PlanIds {
  ids: WeakMap<object, number>;
  next: number;
}

// the byte cache is one per process, and so are its keys
const planIds = lazily<PlanIds>(() => ({ ids: new WeakMap(), next: 0 }));

/** A process-unique name of one plan (or any immutable input) object. */
export function identityOf(value: object): string {
  const s = planIds();
  let id = s.ids.get(value);
  if (id === undefined) s.ids.set(value, (id = ++s.next));
  return `#${id}`;
}

/** Everything of a view and its evaluation that reaches the bytes (lib/live/evaluation.ts snapshotMeta, the content). */
export function viewKey(view: FleetView, evaluation?: Evaluation): unknown[] {
  return [
    view.contentId,
    view.revision,
    view.readAtMs,
    view.live,
    view.pinned,
    evaluation?.now ?? null,
    evaluation?.now_basis ?? null,
    evaluation?.revision_time ?? null,
  ];
}

/** One cache key from a route's name and the parts its answer depends on. */
export function answerKey(route: string, ...parts: unknown[]): string {
  return `${route} ${JSON.stringify(parts)}`;
}
