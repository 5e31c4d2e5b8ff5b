// The why-not explanation exactly as the planner gives it: code (in words), sentence,
// whether it clears by itself, and whatever detail it attached, labelled in words.
import { formatBytes, formatCount, formatDuration, formatTime } from "@/components/ui/format";
import { codeInWords, retryMeaningful } from "@/components/ui/words";
import type { Verdict, WhyNot } from "@/lib/client/api-types";

/** The planner's detail field names in words (labels are words, never field names). */
const FIELD_WORDS: Record<string, string> = {
  kind: "work kind",
  score: "score",
  wait_ms: "waited",
  max_turn_wait_secs: "promoted after waiting",
  unit_id: "unit",
  executor: "executor",
  state: "state",
  failures: "failures so far",
  until_ms: "cooling until",
  remaining_ms: "time left",
  next_retry_ms: "next retry",
  last_error: "last error",
  consecutive_attempts: "failures in a row",
  endpoint: "endpoint",
  class: "failure class",
  considered: "executors considered",
  counts: "why each was passed over",
  max_placements_per_cycle: "placements per cycle",
  mode: "policy mode",
  eligibility: "eligibility",
  execution_id: "execution",
  instance: "instance",
  phase: "phase",
  sequence: "progress sequence",
  progress: "progress",
  last_progress_ms: "last progress",
  idle_timeout_secs: "idle timeout",
  count: "turns in a row",
  limit: "turn limit",
  to: "yields its turn to",
  task_id: "task",
  id: "id",
};

export function fieldInWords(name: string): string {
  return FIELD_WORDS[name] ?? codeInWords(name.replace(/_(ms|secs|bytes)$/, ""));
}

/** `*_ms` fields are times (epoch) or durations, `*_secs` durations, `*_bytes` sizes. */
function formatField(name: string, value: unknown): string | null {
  if (typeof value !== "number") return null;
  if (name.endsWith("_ms")) return value > 1e12 ? formatTime(value) : formatDuration(value);
  if (name.endsWith("_secs")) return formatDuration(value * 1000);
  if (name.endsWith("_bytes")) return formatBytes(value);
  return Number.isInteger(value) ? formatCount(value) : value.toFixed(3);
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
          <dt title={k}>{fieldInWords(k)}</dt>
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
          Would skip: <strong>{codeInWords(verdict.code)}</strong> <code className="muted">{verdict.code}</code> — {verdict.message}
        </div>
      )}
      {whyNot.length === 0 ? (
        <p className="muted">Nothing holds it back: it would be placed now.</p>
      ) : (
        <ol style={{ margin: 0, paddingLeft: 18 }}>
          {whyNot.map((w, i) => (
            <li key={`${w.code}-${i}`} style={{ marginBottom: 6 }} data-testid="why-not-item">
              <strong>{codeInWords(w.code)}</strong> <code className="muted" data-testid="why-not-code">{w.code}</code>{" "}
              {retryMeaningful(w.code) &&
                (w.retryable ? (
                  <span className="tag" title="retryable: the condition clears by itself (time, capacity)" data-testid="why-not-retry">clears by itself</span>
                ) : (
                  <span className="tag tag-warn" title="not retryable: someone must change something" data-testid="why-not-retry">needs someone to act</span>
                ))}
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
