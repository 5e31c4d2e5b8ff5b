// The fleet's free capacity per kind, in the one set of words (lib/words/capacity.ts): `free`
// (what every verdict uses) first, its parts beside it, on the overview and /executors alike.
import { HEADROOM_PARTS, bytesHeadroomText, legacyNote } from "@/lib/words/capacity";
import { countOf, formatCount } from "@/lib/words/format";
import type { ExecutorsResponse } from "@/lib/client/api-types";

export function HeadroomTable({ executors: { totals } }: { executors: ExecutorsResponse }) {
  const kinds = Object.keys(totals.slots);
  const notes = kinds.flatMap((k) => {
    const note = legacyNote(k, totals.slots[k]);
    return note ? [{ kind: k, note }] : [];
  });
  return (
    <>
      <div className="table-scroll">
        <table className="data" data-testid="headroom-table">
          <caption className="muted">
            Over live executors that accept work; free is total − reserved, what every verdict uses.
          </caption>
          <thead>
            <tr>
              <th scope="col">kind</th>
              {HEADROOM_PARTS.map(({ part, label, title }) => (
                <th key={part} scope="col" className="num" title={title}>
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {kinds.map((k) => (
              <tr key={k} data-testid={`headroom-${k}`}>
                <th scope="row" className="mono">
                  {k}
                </th>
                {HEADROOM_PARTS.map(({ part }) => (
                  <td
                    key={part}
                    className="num"
                    data-part={part}
                    data-testid={part === "free" ? `free-slots-${k}` : undefined}
                  >
                    {formatCount(totals.slots[k][part])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted" data-testid="bytes-free-total">
        bytes: {totals.bytes.total === 0 ? "no executor has a byte budget" : bytesHeadroomText(totals.bytes)}
        {totals.unbudgeted > 0
          ? ` · ${countOf(totals.unbudgeted, "executor")} without a byte budget ${totals.unbudgeted === 1 ? "is" : "are"} never byte-checked and left out`
          : ""}
        {totals.overcommitted > 0 ? ` · ${formatCount(totals.overcommitted)} overcommitted` : ""}
      </p>
      {notes.map(({ kind, note }) => (
        <p key={kind} className="explain" data-testid={`legacy-note-${kind}`}>
          {note}
        </p>
      ))}
    </>
  );
}
