"use client";
// A page heading with the revision and age of what is shown; during an etcd outage it
// says the data is the last good one, not live.
import type { ReactNode } from "react";
import { useOutage } from "@/lib/client/resources/health";
import { useHydrated } from "@/lib/client/use-hydrated";
import { formatCount, formatTime } from "./format";

export function PageTitle({
  title,
  revision,
  readAtMs,
  children,
}: {
  title: string;
  revision?: number;
  readAtMs?: number;
  children?: ReactNode;
}) {
  const outage = useOutage();
  const hydrated = useHydrated();
  return (
    <div className="page-title">
      <h1>{title}</h1>
      {revision !== undefined && (
        <span
          className="muted"
          data-testid="shown-revision"
          title="The revision this page's answer was planned at. The header's live mark shows the newest revision etcd reports; the two differ by the writes since this page's last plan (a live page replans every few seconds)."
        >
          revision {formatCount(revision)}
          {readAtMs ? ` · read ${formatTime(readAtMs)}` : ""}
        </span>
      )}
      {hydrated && outage.down && (
        <span className="tag tag-bad" data-testid="stale-data">
          last good data, not live
        </span>
      )}
      {children}
    </div>
  );
}
