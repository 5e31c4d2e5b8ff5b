// What saving would change (console-api.md "POST …/preview", Additions): the blast radius
// first, losses leading, each count opening its tables; then every changed table.
import Link from "next/link";
import type { PreviewEffectName, PreviewResponse, PreviewRow } from "@/lib/schema/api/policies";
import styles from "./policies.module.css";
import { formatCount, formatScore } from "@/components/ui/format";
import { classLabel, verdictLabel } from "@/lib/words/codes";

const n = formatCount;

/** Losses first: what an admin must see before anything else. */
export const EFFECTS: { effect: PreviewEffectName; one: string; many: string; bad: boolean }[] = [
  { effect: "placements_lost", one: "placement lost", many: "placements lost", bad: true },
  { effect: "demoted", one: "table demoted", many: "tables demoted", bad: true },
  { effect: "newly_starving", one: "table would newly starve", many: "tables would newly starve", bad: true },
  { effect: "placements_gained", one: "placement gained", many: "placements gained", bad: false },
  { effect: "promoted", one: "table promoted", many: "tables promoted", bad: false },
];

const countText = (count: number, one: string, many: string) => `${n(count)} ${count === 1 ? one : many}`;

/** The one short verdict of every list (lib/words): "place → worker-2", "skip: ownership blocked". */
const verdictText = (v: PreviewRow["before"]["verdict"]): string => verdictLabel(v);
/** the code a verdict's words say, for comparing surfaces (`placed` for a placement) */
const codeOf = (v: PreviewRow["before"]["verdict"]): string => (v.state === "would_place" ? "placed" : v.code);

function TableLink({ target }: { target: string }) {
  return (
    <Link href={`/tables/${encodeURIComponent(target)}`} className="target">
      {target}
    </Link>
  );
}

/** The counts, each a disclosure listing its tables. */
export function BlastRadius({ preview }: { preview: PreviewResponse }) {
  return (
    <ul className={styles.radius} data-testid="blast-radius">
      {EFFECTS.map(({ effect, one, many, bad }) => {
        const count = preview.summary[effect];
        const rows = preview.changed.filter((r) => r.effects.includes(effect));
        return (
          <li
            key={effect}
            data-testid={`effect-${effect}`}
            data-count={count}
            className={bad && count > 0 ? styles.loss : undefined}
          >
            {count === 0 ? (
              <span className="muted">{countText(0, one, many)}</span>
            ) : (
              <details>
                <summary>
                  <strong>{countText(count, one, many)}</strong>
                </summary>
                <ul>
                  {rows.map((r) => (
                    <li key={r.target} data-testid="effect-table">
                      <TableLink target={r.target} />: {classLabel(r.before.class)} → {classLabel(r.after.class)};{" "}
                      {verdictText(r.before.verdict)} → {verdictText(r.after.verdict)}
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </li>
        );
      })}
    </ul>
  );
}

export function PreviewPanel({ preview }: { preview: PreviewResponse }) {
  return (
    <section className="panel" aria-label="preview" data-testid="preview">
      <h2>What saving changes (etcd revision {n(preview.revision)})</h2>
      <BlastRadius preview={preview} />
      {preview.warnings.length > 0 && (
        <ul className={styles.warnings} data-testid="preview-warnings">
          {preview.warnings.map((w) => (
            <li key={w.path} data-path={w.path}>
              {w.message}
            </li>
          ))}
        </ul>
      )}
      <p data-testid="preview-summary">
        {countText(preview.changed.length, "table changes", "tables change")} class, score or verdict;{" "}
        {n(preview.unchanged_count)} unchanged.
      </p>
      {preview.changed.length > 0 && (
        <table className="data">
          <thead>
            <tr>
              <th>table</th>
              <th>class</th>
              <th>score</th>
              <th>verdict</th>
            </tr>
          </thead>
          <tbody>
            {preview.changed.map((row) => (
              <tr key={row.target} data-testid="preview-row" data-target={row.target}>
                <td>
                  <TableLink target={row.target} />
                </td>
                <td>
                  <span data-testid="preview-class-before">{classLabel(row.before.class)}</span> →{" "}
                  <strong data-testid="preview-class-after">{classLabel(row.after.class)}</strong>
                </td>
                <td className="num">
                  {formatScore(row.before.score)} → {formatScore(row.after.score)}
                </td>
                <td data-testid="preview-verdict">
                  <span data-code={codeOf(row.before.verdict)}>{verdictText(row.before.verdict)}</span> →{" "}
                  <strong data-code={codeOf(row.after.verdict)}>{verdictText(row.after.verdict)}</strong>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
