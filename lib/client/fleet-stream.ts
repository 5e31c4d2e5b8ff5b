"use client";
// The live /tables listing kept by the server's pushes (GET /scheduler/demand/stream, issue
// 24): one EventSource per page, from the listing the page holds; each `changes` event is
// one plan step's change-set, the same bytes every open page gets, applied in order. An
// event that does not fit the listing held (or `changes: null`) reads the fleet again and
// streams from there. A reconnect catches up from its last event (Last-Event-ID). When the
// stream cannot be had (etcd away: the reconnect is a 503; no EventSource) the page falls
// back to asking for changes (`?since=`, every 2 s), which reports the outage and keeps the
// last good listing, and tries the stream again once those asks succeed for a while.
// A browser keeps at most six HTTP/1.1 connections to the console, and a stream holds one for
// good: past six open /tables pages every further request of the console in that browser waited
// (a seventh page never loaded). So at most STREAM_SLOTS of a browser's pages stream at once
// (Web Locks, shared by its tabs). A streaming page passes each event on to the browser's
// other /tables pages (a BroadcastChannel): every stream carries the same change-sets, so
// they apply them as their own, and the server's work does not grow with a browser's tabs
// (each asking page made its own change-set from its own listing: ten tabs of one browser
// with a writer at 10 events/s used 95 % of a core). A listening page that holds another
// listing than an event's base asks once (`?since=`, at most every FLEET_CHANGES_MS); one
// that hears no streaming page for LISTEN_SILENT_MS takes a slot again, and where there is
// no BroadcastChannel it asks, as in the fallback.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { DemandChanges, DemandList } from "./api-types";
import { demandKeys, fetchFleet, fleetStreamUrl, refreshFleet, withChanges } from "./resources/demand";
import { noteLiveRevision } from "./newest-revision";

/** a browser's pages that stream at once (each holds one of its six connections to the console) */
const STREAM_SLOTS = 3;

/**
 * One of the browser's stream slots, held until `release()`; null when every slot is held. A
 * browser without Web Locks streams as before (no slot to take).
 */
async function takeStreamSlot(): Promise<{ release: () => void } | null> {
  const locks = typeof navigator === "undefined" ? undefined : navigator.locks;
  if (!locks) return { release: () => {} };
  for (let slot = 0; slot < STREAM_SLOTS; slot++) {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const taken = await new Promise<boolean>((resolve) => {
      void locks.request(`scheduler-console.demand-stream.${slot}`, { ifAvailable: true }, (lock) => {
        resolve(lock !== null);
        return lock === null ? undefined : held; // held until released
      });
    });
    if (taken) return { release };
  }
  return null;
}

/** the browser's /tables pages pass the stream's events on here (and say they still stream) */
const SHARED_CHANNEL = "scheduler-console.demand-stream";
/**
 * `listing`: the listing the event's changes make (absent from a page of an older build), so
 * that a page which already applied the event passes over the other streaming pages' copies
 * without parsing them
 */
type Shared = { kind: "changes"; listing?: string; data: string } | { kind: "streaming" };
/** a streaming page says so this often, so a listening page knows a stream is still there */
const STREAMING_EVERY_MS = 2000;
/** a listening page that heard nothing for this long takes a slot again */
const LISTEN_SILENT_MS = 3 * STREAMING_EVERY_MS;
/** listings applied lately (the same event comes from each streaming page) */
const SEEN_LISTINGS = 64;

/** after falling back to asking, how many asks must succeed (10 s of them) before the stream is tried again */
const RETRY_STREAM_AFTER_ASKS = 5;

/**
 * How often the fallback asks for the fleet's changes (`?since=`). Faster than a live plan is
 * re-made (lib/live/plan.ts, every few seconds), so a repeat while the plan stands is a
 * 304 without a body; each new plan's changes travel once, whatever this rate.
 */
const FLEET_CHANGES_MS = 2000;

/**
 * The live fleet listing after `first` (the first load, every page, once complete): kept
 * by the stream's pushes, or by asking while the stream cannot be had. A query result
 * whose data is the listing held (undefined until the first change).
 */
export function useLiveFleetListing(live: boolean, first: DemandList | undefined) {
  const client = useQueryClient();
  const key = demandKeys.fleetListing(null);
  /** null while streaming; else the asks that succeeded since falling back */
  const [asked, setAsked] = useState<number | null>(null);
  const [generation, setGeneration] = useState(0);
  const firstRef = useRef(first);
  useEffect(() => {
    firstRef.current = first;
  }, [first]);
  const ready = live && first !== undefined;
  const asking = asked !== null || typeof EventSource === "undefined";

  useEffect(() => {
    if (!ready || asking) return;
    let source: EventSource | null = null;
    let slot: { release: () => void } | null = null;
    let closed = false;
    const shared = typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel(SHARED_CHANNEL);
    let streamingTimer: ReturnType<typeof setInterval> | null = null;
    let silenceTimer: ReturnType<typeof setInterval> | null = null;
    const held = () => client.getQueryData<DemandList>(key) ?? firstRef.current;
    /** The stream from the listing held, applied as it comes, and passed on to the browser's other pages. */
    const stream = (): EventSource => {
      const source = new EventSource(fleetStreamUrl(held()?.listing));
      let rereading = false;
      streamingTimer = setInterval(
        () => shared?.postMessage({ kind: "streaming" } satisfies Shared),
        STREAMING_EVERY_MS,
      );
      source.addEventListener("changes", (event) => {
        const data = (event as MessageEvent<string>).data;
        const body = JSON.parse(data) as DemandChanges;
        shared?.postMessage({ kind: "changes", listing: body.listing, data } satisfies Shared);
        if (rereading) return;
        const base = held();
        if (base?.listing === body.listing) return; // already held (a repeat after a reconnect)
        const next = base && withChanges(base, body);
        if (next) {
          client.setQueryData(key, next);
          noteLiveRevision(next.revision);
          return;
        }
        // not for the listing held: read it all again, then stream from it
        rereading = true;
        source.close();
        fetchFleet(null).then(
          (fleet) => {
            client.setQueryData(key, fleet);
            setGeneration((g) => g + 1);
          },
          () => setAsked(0),
        );
      });
      source.onerror = () => {
        // CONNECTING: the browser reconnects by itself; CLOSED: refused (a 503 while etcd is away)
        if (source.readyState === EventSource.CLOSED) setAsked(0);
      };
      return source;
    };
    /** Every slot is held by other pages: apply the events they pass on. */
    const listen = (channel: BroadcastChannel) => {
      const seen: string[] = [];
      let heardMs = performance.now();
      let askedMs = 0;
      let asking = false;
      const catchUp = () => {
        if (asking || performance.now() - askedMs < FLEET_CHANGES_MS) return;
        asking = true;
        askedMs = performance.now();
        refreshFleet(held()).then(
          (next) => {
            asking = false;
            if (closed) return;
            client.setQueryData(key, next);
            noteLiveRevision(next.revision);
          },
          () => {
            asking = false;
            if (!closed) setAsked(0); // the fallback says what is wrong, and keeps the last good listing
          },
        );
      };
      channel.onmessage = (message: MessageEvent<Shared>) => {
        heardMs = performance.now();
        if (message.data.kind !== "changes") return;
        const { listing } = message.data;
        if (listing !== undefined && (held()?.listing === listing || seen.includes(listing))) return; // applied: not parsed again
        const body = JSON.parse(message.data.data) as DemandChanges;
        const base = held();
        if (base?.listing === body.listing || seen.includes(body.listing)) return; // applied (each streaming page passes it on)
        const next = base && withChanges(base, body);
        if (!next) return catchUp(); // not for the listing held: ask for the changes from it
        seen.push(body.listing);
        if (seen.length > SEEN_LISTINGS) seen.shift();
        client.setQueryData(key, next);
        noteLiveRevision(next.revision);
      };
      // no streaming page heard for a while (they closed): take a slot again
      silenceTimer = setInterval(() => {
        if (performance.now() - heardMs > LISTEN_SILENT_MS) setGeneration((g) => g + 1);
      }, STREAMING_EVERY_MS);
    };
    void takeStreamSlot().then((taken) => {
      if (closed) return taken?.release();
      if (taken === null) {
        // every slot is held by other pages: listen to what they stream, or ask where that cannot be had
        if (shared) return listen(shared);
        return setAsked(0);
      }
      slot = taken;
      source = stream();
    });
    return () => {
      closed = true;
      source?.close();
      slot?.release();
      if (streamingTimer) clearInterval(streamingTimer);
      if (silenceTimer) clearInterval(silenceTimer);
      shared?.close();
    };
    // `key` is a new array each render with the same contents
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ready, asking, generation, client]);

  return useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => {
      const next = await refreshFleet(client.getQueryData<DemandList>(key) ?? firstRef.current, signal);
      // the asks have succeeded for a while: try the stream again
      setAsked((n) => (n === null || n + 1 >= RETRY_STREAM_AFTER_ASKS ? null : n + 1));
      return next;
    },
    enabled: ready && asking,
    // a change-set keeps every row it does not change (lib/client/resources/demand.ts
    // applyChanges), so comparing each event's 13,405 rows with the last ones again finds
    // nothing new, and copied every changed row (all of them after the clock's step)
    structuralSharing: false,
    refetchInterval: FLEET_CHANGES_MS,
    staleTime: FLEET_CHANGES_MS,
  });
}
