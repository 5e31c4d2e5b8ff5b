// The table's one write-turn holder (lib/words/write-turn.ts), as every page shows it: the
// same words on the table page, /shadow and the overview, with the holder's name in
// `data-holder` so a crawler can compare the surfaces.
import type { TableSummary } from "@/lib/client/api-types";
import { NO_HOLDER_WORDS, holderInWords, holderKey, holderLabel } from "@/lib/words/write-turn";

export function WriteTurnHolder({
  holder,
  nowMs,
  short = false,
}: {
  holder: TableSummary["write_turn_holder"];
  nowMs: number;
  /** the label alone ("held by …"), for a list cell; the deadline stays in the title */
  short?: boolean;
}) {
  if (holder === null)
    return (
      <span className="muted" data-testid="write-turn-holder" data-holder="none">
        {short ? "write turn free" : NO_HOLDER_WORDS}
      </span>
    );
  const words = holderInWords(holder, nowMs);
  return (
    <span data-testid="write-turn-holder" data-holder={holderKey(holder)} title={short ? words : undefined}>
      {short ? `write turn held by ${holderLabel(holder)}` : words}
    </span>
  );
}
