// The why-not explanation exactly as the planner gives it: code (in words), sentence,
// whether it clears by itself, and whatever detail it attached, labelled in words.
import { fieldInWords, formatField } from "@/lib/words/fields";
import { formatBytes, formatTime } from "@/components/ui/format";
import { codeInWords, retryMeaningful } from "@/lib/words/codes";
import { overdueText } from "@/lib/words/format";
import type { TableDetail, WhyNot } from "@/lib/client/api-types";
import { VerdictHeadroom } from "./verdict-headroom";

function DetailValue({ value, name = "" }: { value: unknown; name?: string }) {
  if (value === null || value === undefined) return <span className="muted">—</span>;
  const formatted = formatField(name, value);
  if (formatted !== null)
    return (
      <span className="mono" title={String(value)}>
        {formatted}
      </span>
    );
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

/** Why-not entries as a list: what holds it back, in words, with its code and detail. */
function WhyNotList({ entries, testid = "why-not-item" }: { entries: WhyNot[]; testid?: string }) {
  return (
    <ol style={{ margin: 0, paddingLeft: 18 }}>
      {entries.map((w, i) => (
        <li key={`${w.code}-${i}`} style={{ marginBottom: 6 }} data-testid={testid}>
          <strong>{codeInWords(w.code)}</strong>{" "}
          <code className="muted" data-testid="why-not-code">
            {w.code}
          </code>{" "}
          {retryMeaningful(w.code) &&
            (w.overdue ? (
              <span
                className="tag tag-warn"
                title={`it was to clear by ${formatTime(w.overdue.deadline_ms)}: past that, it did not clear by itself`}
                data-testid="why-not-retry"
              >
                {overdueText(w.overdue.overdue_ms)}
              </span>
            ) : w.retryable ? (
              <span
                className="tag"
                title="retryable: the condition clears by itself (time, capacity)"
                data-testid="why-not-retry"
              >
                clears by itself
              </span>
            ) : (
              <span
                className="tag tag-warn"
                title="not retryable: someone must change something"
                data-testid="why-not-retry"
              >
                needs someone to act
              </span>
            ))}
          <div data-testid="why-not-message">{w.message}</div>
          {w.detail !== undefined && w.detail !== null && Object.keys(w.detail as object).length > 0 && (
            <div className="muted">
              <DetailValue value={w.detail} />
            </div>
          )}
        </li>
      ))}
    </ol>
  );
}

/** "Which executor?": the verdict, the console's §6.2 pass and the master's shadow row, and why they differ. */
function ExecutorAnswers({ a }: { a: TableDetail["executor_agreement"] }) {
  if (a.verdict === null && a.console_shadow === null && a.master_shadow === null) return null;
  return (
    <div style={{ marginTop: 8 }} data-testid="executor-agreement">
      <h3>Which executor?</h3>
      <dl className="kv">
        <dt>this verdict (full design)</dt>
        <dd className="mono">{a.verdict ?? <span className="muted">none: held back</span>}</dd>
        <dt>console&apos;s shadow pass (§6.2)</dt>
        <dd className="mono">{a.console_shadow ?? <span className="muted">not placed</span>}</dd>
        <dt>master&apos;s shadow row</dt>
        <dd className="mono">
          {a.master_shadow ? (
            <>
              {a.master_shadow.executor}{" "}
              <span className="muted">(written {formatTime(a.master_shadow.created_ms)})</span>
            </>
          ) : (
            <span className="muted">none</span>
          )}
        </dd>
      </dl>
      {a.agree ? (
        <p className="muted">All three agree.</p>
      ) : (
        <ul style={{ margin: "4px 0 0", paddingLeft: 18 }} data-testid="executor-disagreement">
          {a.reasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function WhyNotPanel({ table: t }: { table: TableDetail }) {
  const verdict = t.verdict;
  return (
    <section className="panel" aria-label="why not" data-testid="why-not">
      <h2>Verdict and why not</h2>
      {verdict.state === "would_place" && (
        <div className="explain">
          Would place {verdict.kind ? <span className="mono">{verdict.kind}</span> : null} on{" "}
          <strong className="mono">{verdict.executor}</strong>, reserving {formatBytes(verdict.reserved_bytes)}.
          <div className="muted" data-testid="headroom-basis">
            {t.headroom.message}
          </div>
        </div>
      )}
      {verdict.state === "would_skip" && (
        <div className="explain explain-skip">
          Would skip: <strong>{codeInWords(verdict.code)}</strong> <code className="muted">{verdict.code}</code>
          {t.why_not[0]?.message !== verdict.message && <> — {verdict.message}</>}
        </div>
      )}
      {t.why_not.length === 0 ? (
        <p className="muted">Nothing holds it back: it would be placed now.</p>
      ) : (
        <WhyNotList entries={t.why_not} />
      )}
      <PassedOver table={t} />
      <ExecutorAnswers a={t.executor_agreement} />
      <VerdictHeadroom table={t} />
    </section>
  );
}

/** Units passed over for a reason the table-wide list does not already give (turn_limit and the like). */
function PassedOver({ table: t }: { table: TableDetail }) {
  const shown = new Set(t.why_not.map((w) => `${w.code}|${w.message}`));
  const units = t.units
    .map((u) => ({ kind: u.kind, entries: u.why_not.filter((w) => !shown.has(`${w.code}|${w.message}`)) }))
    .filter((u) => u.entries.length > 0);
  if (units.length === 0) return null;
  return (
    <div style={{ marginTop: 8 }} data-testid="passed-over">
      <h3>Other units passed over</h3>
      {units.map((u) => (
        <div key={u.kind}>
          <span className="mono">{u.kind}</span>
          <WhyNotList entries={u.entries} testid="passed-over-item" />
        </div>
      ))}
    </div>
  );
}
