"use client";
// The confirm step of a policy write: a native modal <dialog> (focus moves into it, Esc
// cancels, focus returns to what opened it). It leads with what is lost, asks for the
// reason the audit keeps, and, when the save loses placements or touches the fleet
// default, asks the admin to type the target's name.
import { useEffect, useId, useRef, useState } from "react";
import { CHANGE_REASON_MAX, type PreviewResponse } from "@/lib/schema/api/policies";
import { DEFAULT_POLICY_TARGET } from "@/lib/schema/policy";
import { ModeNotice } from "./mode-notice";
import { BlastRadius } from "./preview-panel";
import styles from "./policies.module.css";

export interface ConfirmProps {
  target: string;
  action: "save" | "delete";
  preview: PreviewResponse;
  targetMode: string;
  initialReason: string;
  /** the target's name as typed at an earlier confirm of the same edit (a stale save confirmed again) */
  initialName?: string;
  /** the write is in flight: confirming again would send it twice */
  busy: boolean;
  onConfirm: (reason: string, typedName: string) => void;
  onCancel: () => void;
}

/** The save needs the target's name typed when it loses placements or edits `_default`. */
function needsTypedName(target: string, preview: PreviewResponse): boolean {
  return target === DEFAULT_POLICY_TARGET || preview.summary.placements_lost > 0;
}

/** What a disabled confirm button waits for, in words (console-api.md third version: plain errors). */
function waitingFor(o: {
  reasonOk: boolean;
  reasonLength: number;
  nameOk: boolean;
  busy: boolean;
  target: string;
}): string | null {
  if (o.busy) return "Saving…";
  const needs: string[] = [];
  if (!o.reasonOk)
    needs.push(
      o.reasonLength > CHANGE_REASON_MAX
        ? `a reason of at most ${CHANGE_REASON_MAX} characters`
        : "a reason (why you make this change)",
    );
  if (!o.nameOk) needs.push(`the name ${o.target} typed exactly`);
  return needs.length === 0 ? null : `Waiting for ${needs.join(" and ")}.`;
}

export function ConfirmDialog({
  target,
  action,
  preview,
  targetMode,
  initialReason,
  initialName = "",
  busy,
  onConfirm,
  onCancel,
}: ConfirmProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const [reason, setReason] = useState(initialReason);
  const [typed, setTyped] = useState(initialName);
  const ids = { title: useId(), reason: useId(), name: useId(), waiting: useId() };
  const mustType = needsTypedName(target, preview);
  const reasonOk = reason.trim().length >= 1 && reason.trim().length <= CHANGE_REASON_MAX;
  const nameOk = !mustType || typed === target;
  const waiting = waitingFor({ reasonOk, reasonLength: reason.trim().length, nameOk, busy, target });

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement as HTMLElement | null;
    if (!dialog.open) dialog.showModal();
    reasonRef.current?.focus();
    return () => {
      if (dialog.open) dialog.close();
      opener?.focus?.();
    };
  }, []);

  const what = target === DEFAULT_POLICY_TARGET ? "the fleet default (_default)" : target;
  return (
    <dialog
      ref={ref}
      className={styles.dialog}
      aria-labelledby={ids.title}
      data-testid="confirm"
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <h2 id={ids.title}>
        {action === "delete" ? "Delete the override of" : "Save the policy of"} <span className="target">{what}</span>?
      </h2>
      <BlastRadius preview={preview} />
      {preview.warnings.length > 0 && (
        <ul className={styles.warnings}>
          {preview.warnings.map((w) => (
            <li key={w.path}>{w.message}</li>
          ))}
        </ul>
      )}
      <ModeNotice modes={preview.modes} targetMode={targetMode} />
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          if (reasonOk && nameOk && !busy) onConfirm(reason.trim(), typed);
        }}
      >
        <label htmlFor={ids.reason}>Why are you making this change? (kept in the audit log)</label>
        <textarea
          id={ids.reason}
          ref={reasonRef}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          maxLength={CHANGE_REASON_MAX}
          rows={2}
          required
          style={{ width: "100%" }}
        />
        {mustType && (
          <>
            <label htmlFor={ids.name}>
              {preview.summary.placements_lost > 0
                ? "This save loses placements."
                : "This changes the default of every table."}{" "}
              Type <strong className="mono">{target}</strong> to confirm.
            </label>
            <input
              id={ids.name}
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              autoComplete="off"
              spellCheck={false}
              data-testid="confirm-name"
            />
          </>
        )}
        <div className={styles.actions}>
          <button
            type="submit"
            className={action === "delete" || mustType ? styles.danger : styles.primary}
            disabled={waiting !== null}
            aria-busy={busy}
            aria-describedby={waiting ? ids.waiting : undefined}
          >
            {action === "delete" ? "Confirm delete" : "Confirm save"}
          </button>
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
          {waiting && (
            <span id={ids.waiting} className={styles.waiting} data-testid="confirm-waiting">
              {waiting}
            </span>
          )}
        </div>
      </form>
    </dialog>
  );
}
