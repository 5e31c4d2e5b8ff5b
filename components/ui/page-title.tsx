// A page heading with the revision and age of what is shown.
import type { ReactNode } from "react";
import { formatCount, formatTime } from "./format";

export function PageTitle({ title, revision, readAtMs, children }: { title: string; revision?: number; readAtMs?: number; children?: ReactNode }) {
  return (
    <div className="page-title">
      <h1>{title}</h1>
      {revision !== undefined && (
        <span className="muted" data-testid="shown-revision">
          revision {formatCount(revision)}
          {readAtMs ? ` · read ${formatTime(readAtMs)}` : ""}
        </span>
      )}
      {children}
    </div>
  );
}
