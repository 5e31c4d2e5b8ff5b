"use client";
// 409 preview_stale (console-api.md "Policy edits on a live fleet"): what changed between
// the effect the admin reviewed and saving now, as target lists per decision set, and the
// way on: confirm the fresh effect in place. It takes the focus and scrolls into view when
// it arrives, so a long review scrolled to its bottom still shows it.
import Link from "next/link";
import { forwardRef } from "react";
import type { DecisionChangesBody, PreviewResponse } from "@/lib/schema/api/policies";
import { EFFECTS } from "./preview-panel";
import styles from "./policies.module.css";
import { formatCount } from "@/components/ui/format";

const SHOWN = 12;

function Targets({ list }: { list: string[] }) {
  const shown = list.slice(0, SHOWN);
  return (
    <>
      {shown.map((t, i) => (
        <span key={t}>
          {i > 0 && ", "}
          <Link href={`/tables/${encodeURIComponent(t)}`} className="target">
            {t}
          </Link>
        </span>
      ))}
      {list.length > SHOWN && ` and ${formatCount(list.length - SHOWN)} more`}
    </>
  );
}

export interface StaleNoticeProps {
  reviewed: PreviewResponse;
  fresh: PreviewResponse;
  /** the material changes (null: this server did not answer the reviewed preview) */
  changed: DecisionChangesBody | null;
  onConfirmFresh: () => void;
  busy: boolean;
}

export const StaleNotice = forwardRef<HTMLDivElement, StaleNoticeProps>(function StaleNotice(
  { reviewed, fresh, changed, onConfirmFresh, busy },
  ref,
) {
  const lines =
    changed === null
      ? []
      : EFFECTS.filter(({ effect }) => changed[effect].added.length + changed[effect].removed.length > 0);
  return (
    <div ref={ref} className={styles.conflict} role="alert" data-testid="stale-notice" tabIndex={-1}>
      <h3>Not saved: the fleet moved since your review</h3>
      <p>
        Saving now would decide differently from what you reviewed at revision {formatCount(reviewed.revision)} (now
        revision {formatCount(fresh.revision)}). Nothing was written.
      </p>
      {changed === null ? (
        <p>
          This console did not answer the preview you reviewed (another replica, or a restart), so it cannot list what
          changed; the fresh effect is below.
        </p>
      ) : (
        <ul className={styles["changed-sets"]}>
          {lines.map(({ effect, many }) => (
            <li key={effect} data-testid={`stale-${effect}`}>
              <strong>{many}</strong>:{" "}
              {changed[effect].added.length > 0 && (
                <span data-testid={`stale-${effect}-added`}>
                  now also <Targets list={changed[effect].added} />
                </span>
              )}
              {changed[effect].added.length > 0 && changed[effect].removed.length > 0 && "; "}
              {changed[effect].removed.length > 0 && (
                <span data-testid={`stale-${effect}-removed`}>
                  no longer <Targets list={changed[effect].removed} />
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className={styles.actions}>
        <button
          type="button"
          className={styles.primary}
          onClick={onConfirmFresh}
          disabled={busy}
          data-testid="confirm-fresh"
        >
          Save with the fresh effect…
        </button>
        <span className={styles.waiting}>The fresh preview below is what this save does now.</span>
      </div>
    </div>
  );
});
