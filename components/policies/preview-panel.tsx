// What saving would change (console-api.md "POST …/preview"): tables whose class, score or
// verdict move, and how many do not.
import Link from "next/link";
import type { PreviewResult } from "./api";

function verdictText(v: unknown): string {
  if (!v || typeof v !== "object") return "—";
  const verdict = v as { state?: string; executor?: string; code?: string };
  if (verdict.state === "would_place") return `would place on ${verdict.executor ?? "?"}`;
  if (verdict.state === "would_skip") return `would skip: ${verdict.code ?? "?"}`;
  return String(verdict.state ?? "—");
}

const score = (s: unknown) => (typeof s !== "number" ? (s === "infinity" ? "∞" : "—") : Number.isInteger(s) ? String(s) : s.toFixed(3));

export function PreviewPanel({ preview }: { preview: PreviewResult }) {
  return (
    <section className="panel" aria-label="preview" data-testid="preview">
      <h2>Preview at revision {preview.revision}</h2>
      <p data-testid="preview-summary">
        {preview.changed.length} {preview.changed.length === 1 ? "table changes" : "tables change"} class, score or verdict;{" "}
        {preview.unchanged_count} unchanged.
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
                <td className="target">
                  <Link href={`/tables/${encodeURIComponent(row.target)}`}>{row.target}</Link>
                </td>
                <td>
                  <span data-testid="preview-class-before">{row.before.class}</span> → <strong data-testid="preview-class-after">{row.after.class}</strong>
                </td>
                <td className="num">
                  {score(row.before.score)} → {score(row.after.score)}
                </td>
                <td data-testid="preview-verdict">
                  {verdictText(row.before.verdict)} → <strong>{verdictText(row.after.verdict)}</strong>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
