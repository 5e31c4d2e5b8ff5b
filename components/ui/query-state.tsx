"use client";
// Loading / error / stale states for one query. With data on screen an error becomes a
// thin "kept last good data" note instead of replacing the page.
import type { ReactNode } from "react";
import { ApiError } from "@/lib/client/fetch-json";
import { useHydrated } from "@/lib/client/use-hydrated";
import { useOutage } from "@/lib/client/resources/health";

/** An error that says etcd was away: once the header is live again it is the past, not the present. */
const etcdAway = (e: unknown) => e instanceof ApiError && (e.code === "etcd_unavailable" || e.code === "etcd_timeout");

function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    // etcd's own error text (gRPC deadlines, member back-off) is for the log, not the page
    if (error.code === "etcd_timeout") return "etcd did not answer in time (it or this machine is busy); try again";
    if (error.code === "etcd_unavailable") return "etcd is unreachable";
    if (error.code === "revision_compacted")
      return `revision compacted (oldest readable: ${error.body?.compact_revision ?? "unknown"}) — pick a newer revision or go live`;
    return `${error.code}: ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** The part of a TanStack result this needs (plain and infinite queries both fit). */
export interface QueryLike<T> {
  data: T | undefined;
  isError: boolean;
  error: unknown;
}

export function QueryState<T>({
  query,
  what,
  quiet = false,
  children,
}: {
  query: QueryLike<T>;
  what: string;
  /** the page already shows this error once (one outage, one message): say only "unavailable" */
  quiet?: boolean;
  children: (data: T) => ReactNode;
}) {
  // Data the server had (a page that asked its first reads while it rendered: app/self-reads.ts)
  // is in the browser's cache before hydration too, seeded from the same answer: it renders at once.
  // Without data, until hydration is over, render what the server rendered.
  const hydrated = useHydrated();
  const outage = useOutage();
  if (query.data === undefined) {
    if (!hydrated)
      return (
        <div className="state state-loading" aria-busy="true">
          Loading {what}…
        </div>
      );
    if (query.isError && quiet) return <p className="muted">{what}: unavailable (see above)</p>;
    if (query.isError)
      return (
        <div className="state state-error" role="alert">
          Could not load {what}: {describeError(query.error)}
        </div>
      );
    return (
      <div className="state state-loading" aria-busy="true">
        Loading {what}…
      </div>
    );
  }
  return (
    <>
      {query.isError &&
        !quiet &&
        (etcdAway(query.error) && hydrated && !outage.down ? (
          // the header says live again: this page's next refresh brings live data (never "unreachable" beside "live")
          <div className="state state-stale" role="status">
            Showing last good {what} from while etcd was away; etcd answers again, refreshing.
          </div>
        ) : (
          <div className="state state-stale" role="status">
            Showing last good {what}; refresh failed ({describeError(query.error)}).
          </div>
        ))}
      {children(query.data)}
    </>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="state state-empty">{children}</div>;
}
