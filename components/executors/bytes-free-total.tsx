// The fleet's free bytes over executors with a byte budget (console-api.md totals): an
// executor without one (bytes_total 0) is never byte-checked (spec §5.2), so it is left out
// and counted instead of adding a misleading "0 B".
import { formatBytes, formatCount } from "@/components/ui/format";
import type { ExecutorsResponse } from "@/lib/client/api-types";

export function BytesFreeTotal({ executors: { totals } }: { executors: ExecutorsResponse }) {
  return (
    <span data-testid="bytes-free-total">
      bytes free {formatBytes(totals.bytes_free)} of {formatBytes(totals.bytes_total)}{" "}
      <span className="muted">(without shadow rows {formatBytes(totals.bytes_free_excluding_shadow)})</span>
      {totals.unbudgeted > 0
        ? ` · ${formatCount(totals.unbudgeted)} executor${totals.unbudgeted === 1 ? " has" : "s have"} no byte budget and ${totals.unbudgeted === 1 ? "is" : "are"} left out`
        : ""}
      {totals.overcommitted > 0 ? ` · ${formatCount(totals.overcommitted)} overcommitted` : ""}
    </span>
  );
}
