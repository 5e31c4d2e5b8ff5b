// Where a table stands in line for its head unit's kind, and roughly when its turn may come
// (console-api.md `position`, `eta`): estimates, shown as a range or "unknown", never negative.
import { formatDuration } from "@/components/ui/format";
import type { TableDetail } from "@/lib/client/api-types";
import { etaText, positionText } from "@/lib/words/place-in-line";

export function PlaceInLine({ table: t }: { table: TableDetail }) {
  if (t.pending_generations === 0 && t.units.length === 0) return null;
  return (
    <div className="explain" data-testid="place-in-line">
      {t.position ? (
        <>
          Place in line: <strong data-testid="position">{positionText(t.position)}</strong> tables waiting for a{" "}
          <span className="mono">{t.position.kind}</span> turn, in planner order.{" "}
        </>
      ) : (
        "Not in line: nothing of it is waiting for a turn now. "
      )}
      Its turn may come: <strong data-testid="eta">{etaText(t.eta)}</strong>
      {t.eta ? (
        <span className="muted"> ({t.eta.basis})</span>
      ) : (
        <span className="muted" data-testid="eta-no-basis">
          {" "}
          (no basis: no {t.position ? <span className="mono">{t.position.kind}</span> : "such"} task finished in the
          last hour, as <code>tasks/</code> records with state <code>done</code> and a <code>finished_at</code>;
          executions that finish without one are not counted)
        </span>
      )}
    </div>
  );
}

export function ClockSkewFlag({ skew }: { skew: TableDetail["clock_skew"] }) {
  if (!skew) return null;
  return (
    <div className="explain explain-skip" role="note" data-testid="clock-skew">
      <span className="tag tag-warn">clock skew</span> A {skew.record} record is stamped {formatDuration(skew.ahead_ms)}{" "}
      after this read&apos;s now. {skew.message}
    </div>
  );
}
