"use client";
// The headroom this table's verdict weighed, from /executors at the same revision, in the one
// set of words (lib/words/capacity.ts): per executor, `free` of the unit's kind and its parts.
import { useExecutors } from "@/lib/client/hooks";
import { headroomText, legacyNote } from "@/lib/words/capacity";
import type { TableDetail } from "@/lib/client/api-types";

/** The kind of unit the verdict is about: the placed unit's, a why-not's, else the head unit's. */
function unitKind(t: TableDetail): string {
  if (t.verdict.state === "would_place" && t.verdict.kind) return t.verdict.kind;
  const detail = t.why_not[0]?.detail as { kind?: unknown } | null | undefined;
  if (typeof detail?.kind === "string") return detail.kind;
  return t.position?.kind ?? t.units[0]?.kind ?? "merge_wal";
}

export function VerdictHeadroom({ table: t }: { table: TableDetail }) {
  const executors = useExecutors();
  if (!executors.data) return null;
  const kind = unitKind(t);
  const rows = executors.data.executors.filter((e) => !e.orphan && e.slots[kind] !== undefined);
  if (rows.length === 0) return null;
  return (
    <div style={{ marginTop: 8 }} data-testid="verdict-headroom" data-kind={kind}>
      <h3>Free {kind} slots</h3>
      <ul className="plain-list">
        {rows.map((e) => {
          const note = legacyNote(kind, e.slots[kind]);
          return (
            <li key={e.id} data-executor={e.id} data-free={e.slots[kind].free}>
              <span className="mono">{e.id}</span>
              {e.draining ? " (draining: takes nothing)" : ""}: {headroomText(e.slots[kind])}
              {note && <div className="muted">{note}</div>}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
