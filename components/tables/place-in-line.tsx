// A table's records stamped after the answer's now (console-api.md `clock_skew`). Where it
// stands in line and when its turn may come, per world, is ./forecasts-panel.tsx.
import { formatDuration } from "@/components/ui/format";
import type { TableDetail } from "@/lib/client/api-types";

export function ClockSkewFlag({ skew }: { skew: TableDetail["clock_skew"] }) {
  if (!skew) return null;
  return (
    <div className="explain explain-skip" role="note" data-testid="clock-skew">
      <span className="tag tag-warn">clock skew</span> A {skew.record} record is stamped {formatDuration(skew.ahead_ms)}{" "}
      after this read&apos;s now. {skew.message}
    </div>
  );
}
