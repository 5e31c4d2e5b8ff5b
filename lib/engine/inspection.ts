import "server-only";
// What tests and benchmarks reach in a running server through its inspector
// (test/support/inspector.ts `inEngine`): the caches bounded by bytes that fill with use, to
// be emptied before the live heap is read or an answer is compared with one made afresh.
import { liveCache } from "@/lib/live/cache";

export { clearEncodedResponses } from "@/lib/http/encoded-response";
export { forgetExactPlans } from "@/lib/live/plan";

/** Forgets the changes the live view keeps to put back recent revisions (a cache by bytes that fills as etcd is written). */
export function forgetRecentChanges(): void {
  liveCache().forgetChanges();
}
