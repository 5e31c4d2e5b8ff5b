import "server-only";
// GET /api/v1/scheduler/demand/stream (issue 24): one plan step, shared by every reader.
// One loop per process steps with the live plan: it waits for the live view's next revision
// or the next live plan (a patch, or the clock's full plan, made off the request path), asks
// for the live plan once, and — per filter fingerprint that has open streams — makes ONE
// change-set from the listing of the previous step (the `?since=` body, ./demand.ts
// `changesBody`), encodes it once and writes the same bytes to every stream. Watch batches
// that arrive while a step runs are coalesced into the next step. A stream that joins, or
// reconnects (`Last-Event-ID`), catches up from the listing it holds: the steps kept since
// it (the last 32: lib/http/step-channel.ts), else one change-set from it when its digest is still held, else
// `changes: null` (read the listing again). Read-your-writes rides the same stream: every
// event carries its `revision`, so a page that saved at R waits for an event at R or later.
import type { DemandChanges, DemandQuery, DemandStreamQuery } from "@/lib/schema/api/demand";
import { fleetView } from "@/lib/live/fleet-view";
import { liveCache } from "@/lib/live/cache";
import { awaitLivePlan, planFor, planKeyOf, prepareFullPlans, type Planned } from "@/lib/live/plan";
import { digestRowsAhead, knownDigest, listingName } from "@/lib/http/listing";
import { lazily } from "@/lib/util/lazily";
import { metrics } from "@/lib/metrics";
import { StepChannel, type StepSource, type StepSubscriber } from "@/lib/http/step-channel";
import { changesBody, listingCoder, listingFingerprint } from "./demand";

/** the longest the loop waits for a change before asking again (the clock moves every 5 s) */
const STEP_WAIT_MS = 5000;
/**
 * Steps start no sooner than this after the last one started, nor sooner than STEP_FACTOR ×
 * the median duration of the last STEP_WINDOW steps: changes that arrive meanwhile are
 * coalesced into the next step, so the loop spends at most about a third of a core however
 * fast writers write, and a change is visible one step (at most ~STEP_MIN_MS + a step) after
 * it lands. The median, not the last step: the step after the clock's new plan (every row's
 * wait moved) costs several of the others, and the next change need not wait three times it.
 */
const STEP_MIN_MS = 50;
const STEP_FACTOR = 3;
const STEP_WINDOW = 9;
/** bytes queued for a page that does not read before its stream is ended */
const MAX_QUEUED_BYTES = 16 * 1024 * 1024;
/** a comment line this often keeps proxies from closing an idle stream */
const KEEPALIVE_MS = 15_000;

interface Subscriber extends StepSubscriber {
  end(): void;
}

interface Channel {
  query: DemandQuery;
  fingerprint: string;
  steps: StepChannel<Subscriber>;
}

interface StreamState {
  channels: Map<string, Channel>;
  running: boolean;
  /** wakes the loop when a stream joins (its first step need not wait for a change) */
  nudge: (() => void) | null;
}

const streams = lazily<StreamState>(() => ({
  channels: new Map(),
  running: false,
  nudge: null,
}));

const encoder = new TextEncoder();

function median(xs: readonly number[]): number {
  const sorted = xs.slice().sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function frameOf(body: DemandChanges): Uint8Array {
  return encoder.encode(`id: ${body.listing}\nevent: changes\ndata: ${JSON.stringify(body)}\n\n`);
}

const asListQuery = (q: DemandStreamQuery): DemandQuery => ({
  ...q,
  limit: 2000,
  target: undefined,
  cursor: undefined,
  since: undefined,
  revision: undefined,
  now_ms: undefined,
  now: undefined,
});

/** One channel's step to the live plan: its listing, able to say itself as changes from any listing still held. */
function sourceOf(c: Channel, planned: Planned): StepSource {
  return {
    listing: listingName(planned, c.fingerprint),
    frameFrom: (since) =>
      frameOf(changesBody(planned, c.query, since ?? "", since === null ? undefined : knownDigest(since))),
  };
}

const subscribed = (st: StreamState) => [...st.channels.values()].reduce((n, c) => n + c.steps.subscribers.size, 0);

/**
 * While streams are open, the clock's full plan (every row made anew, every wait moved) has
 * its rows digested in slices before it goes live: the step that then sends it finds them
 * digested, instead of encoding and comparing ~13,000 rows in one turn of the thread while
 * the changes that land meanwhile wait behind it.
 */
prepareFullPlans("demand-listings", (next, previous) =>
  subscribed(streams()) > 0
    ? digestRowsAhead(next.plan.tables, listingCoder(next.plan), previous?.plan.byTarget)
    : null,
);

async function loop(st: StreamState): Promise<void> {
  st.running = true;
  try {
    let key: string | null = null;
    let revision = 0;
    const durations: number[] = [];
    while (subscribed(st) > 0) {
      const started = performance.now();
      try {
        const view = await fleetView(undefined);
        revision = view.revision;
        const planned = await planFor(view, undefined);
        key = planKeyOf(planned);
        for (const c of st.channels.values())
          if (c.steps.subscribers.size > 0 && c.steps.step(sourceOf(c, planned))) metrics().streamSteps.inc();
      } catch {
        // etcd away: end the streams; each page reconnects and is answered as any read (503, last good data)
        for (const c of st.channels.values()) for (const sub of c.steps.subscribers) sub.end();
        break;
      }
      const took = performance.now() - started;
      const nudged = new Promise<boolean>((resolve) => (st.nudge = () => resolve(true)));
      await Promise.race([
        liveCache().awaitRevision(revision + 1, STEP_WAIT_MS),
        awaitLivePlan(key, STEP_WAIT_MS),
        nudged,
      ]);
      st.nudge = null;
      durations.push(took);
      if (durations.length > STEP_WINDOW) durations.shift();
      const next = started + Math.max(STEP_MIN_MS, STEP_FACTOR * median(durations));
      if (performance.now() < next) await sleep(next - performance.now());
    }
  } finally {
    st.running = false;
    for (const [fp, c] of st.channels) if (c.steps.subscribers.size === 0) st.channels.delete(fp);
  }
}

/**
 * An open stream of `q`'s live listing from `since`: the Response the route returns. The
 * route's wrapper has already read the live view (an absent etcd is its fast 503).
 */
export async function demandStream(q: DemandStreamQuery, since: string | null, signal: AbortSignal): Promise<Response> {
  await fleetView(undefined); // etcd away: the typed 503 now, not an empty stream
  const st = streams();
  const query = asListQuery(q);
  const fingerprint = listingFingerprint(query);
  let c = st.channels.get(fingerprint);
  if (!c) {
    c = { query, fingerprint, steps: new StepChannel<Subscriber>() };
    st.channels.set(fingerprint, c);
  }
  const channel = c;
  let keepalive: NodeJS.Timeout | undefined;
  let sub: Subscriber | undefined;
  const close = () => {
    if (keepalive) clearInterval(keepalive);
    if (sub) channel.steps.subscribers.delete(sub);
    metrics().streamsOpen.set(subscribed(st));
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let open = true;
        sub = {
          at: since,
          write(frame) {
            if (!open) return;
            // a page that stopped reading: end its stream rather than queue without bound (it reconnects and catches up)
            if ((controller.desiredSize ?? 0) < -MAX_QUEUED_BYTES) return this.end();
            try {
              controller.enqueue(frame);
            } catch {
              open = false;
              close();
            }
          },
          end() {
            if (!open) return;
            open = false;
            close();
            controller.close();
          },
        };
        // tells EventSource how long to wait before reconnecting, and opens the stream at once
        controller.enqueue(encoder.encode("retry: 2000\n\n"));
        channel.steps.join(sub);
        metrics().streamsOpen.set(subscribed(st));
        keepalive = setInterval(() => sub?.write(encoder.encode(": keepalive\n\n")), KEEPALIVE_MS);
        keepalive.unref();
        signal.addEventListener("abort", () => sub?.end(), { once: true });
        if (!st.running) void loop(st);
        else st.nudge?.();
      },
      cancel() {
        close();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
  );
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-accel-buffering": "no",
    },
  });
}
