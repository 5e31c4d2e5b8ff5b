// The why-not explanation exactly as the planner gives it: code, sentence, retryable,
// and whatever detail it attached (per-executor counts, windows).
import { formatBytes, formatDuration, formatTime } from "@/components/ui/format";
import type { Verdict, WhyNot } from "@/lib/client/api-types";

/** `*_ms` fields are times (epoch) or durations; `*_bytes` are sizes. Display only. */
function formatField(name: string, value: unknown): string | null {
  if (typeof value !== "number") return null;
  if (name.endsWith("_ms")) return value > 1e12 ? formatTime(value) : formatDuration(value);
  if (name.endsWith("_bytes")) return formatBytes(value);
  return Number.isInteger(value) ? null : value.toFixed(3);
}

function DetailValue({ value, name = "" }: { value: unknown; name?: string }) {
  if (value === null || value === undefined) return <span className="muted">—</span>;
  const formatted = formatField(name, value);
  if (formatted !== null) return <span className="mono" title={String(value)}>{formatted}</span>;
  if (typeof value !== "object") return <span className="mono">{String(value)}</span>;
  if (Array.isArray(value))
    return (
      <span className="mono">
        {value.map((v, i) => (
          <span key={i}>
            {i > 0 ? ", " : ""}
            {typeof v === "object" ? JSON.stringify(v) : String(v)}
          </span>
        ))}
      </span>
    );
  return (
    <dl className="kv">
      {Object.entries(value as Record<string, unknown>).map(([k, v]) => (
        <div key={k} style={{ display: "contents" }}>
          <dt>{k}</dt>
          <dd>
            <DetailValue value={v} name={k} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function WhyNotPanel({ verdict, whyNot }: { verdict: Verdict | null; whyNot: WhyNot[] }) {
  return (
    <section className="panel" aria-label="why not" data-testid="why-not">
      <h2>Verdict and why not</h2>
      {verdict?.state === "would_place" && (
        <div className="explain">
          Would place on <strong className="mono">{verdict.executor}</strong>, reserving {formatBytes(verdict.reserved_bytes)}.
        </div>
      )}
      {verdict?.state === "would_skip" && (
        <div className="explain explain-skip">
          Would skip: <code>{verdict.code}</code> — {verdict.message}
        </div>
      )}
      {whyNot.length === 0 ? (
        <p className="muted">Nothing holds it back: it would be placed now.</p>
      ) : (
        <ol style={{ margin: 0, paddingLeft: 18 }}>
          {whyNot.map((w, i) => (
            <li key={`${w.code}-${i}`} style={{ marginBottom: 6 }} data-testid="why-not-item">
              <code data-testid="why-not-code">{w.code}</code> {w.retryable ? <span className="tag">retryable</span> : <span className="tag tag-warn">needs a change</span>}
              <div data-testid="why-not-message">{w.message}</div>
              {w.detail !== undefined && w.detail !== null && (
                <div className="muted">
                  <DetailValue value={w.detail} />
                </div>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
