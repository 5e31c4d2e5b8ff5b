// The newest etcd revision this tab has seen live: the health poll's (every 2 s) or a pushed
// /tables step's (lib/client/fleet-stream.ts), whichever is newer. The header's "live · rev N"
// reads it, so it never trails the revision a page beside it shows (a step can arrive
// between two health polls).
import { useSyncExternalStore } from "react";

let newest: number | null = null;
const listeners = new Set<() => void>();

/** A live answer at `revision` arrived (a revision etcd had: it only moves forward). */
export function noteLiveRevision(revision: number): void {
  if (newest !== null && revision <= newest) return;
  newest = revision;
  for (const l of listeners) l();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

/** The newer of `polled` (the health poll's revision) and any pushed step's; null when neither is known. */
export function useNewestLiveRevision(polled: number | null): number | null {
  const pushed = useSyncExternalStore(
    subscribe,
    () => newest,
    () => null,
  );
  if (polled === null) return pushed;
  return pushed === null ? polled : Math.max(polled, pushed);
}
