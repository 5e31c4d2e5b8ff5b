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
// (Web Locks, shared by its tabs); the others ask, as in the fallback, and try again later.
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
    /** The stream from the listing held, applied as it comes. */
    const stream = (): EventSource => {
      const held = () => client.getQueryData<DemandList>(key) ?? firstRef.current;
      const source = new EventSource(fleetStreamUrl(held()?.listing));
      let rereading = false;
      source.addEventListener("changes", (event) => {
        if (rereading) return;
        const body = JSON.parse((event as MessageEvent<string>).data) as DemandChanges;
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
    void takeStreamSlot().then((taken) => {
      if (closed) return taken?.release();
      if (taken === null) return setAsked(0); // every slot is held by other pages: ask, and try again later
      slot = taken;
      source = stream();
    });
    return () => {
      closed = true;
      source?.close();
      slot?.release();
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
    refetchInterval: FLEET_CHANGES_MS,
    staleTime: FLEET_CHANGES_MS,
  });
}
