"use client";
// The review of one policy change (./policy-form.tsx): the stale-preview notice, what is to
// be saved, the planner's preview (or why it is missing) and the confirm dialog.
import type { RefObject } from "react";
import { ConfirmDialog } from "./confirm-dialog";
import { ModeNotice } from "./mode-notice";
import type { ReviewStage, Stage } from "./policy-edit-stages";
import { PolicyDiff } from "./policy-diff";
import { PreviewPanel } from "./preview-panel";
import { StaleNotice } from "./stale-notice";
import styles from "./policies.module.css";

export function ReviewPanel({
  stage,
  stored,
  target,
  targetMode,
  reason,
  typedName,
  saving,
  previewFailed,
  previewError,
  staleRef,
  onStage,
  onConfirm,
}: {
  stage: ReviewStage;
  /** the stored document, its `v` left out */
  stored: unknown;
  target: string;
  targetMode: string;
  reason: string;
  typedName: string;
  saving: boolean;
  previewFailed: boolean;
  previewError: unknown;
  staleRef: RefObject<HTMLDivElement | null>;
  onStage: (stage: Stage) => void;
  onConfirm: (why: string, typed: string) => void;
}) {
  return (
    <section className="panel" aria-label="review" data-testid="review">
      <h2>{stage.action === "delete" ? "Review: delete the override" : "Review"}</h2>
      {stage.stale && stage.preview && (
        <StaleNotice
          ref={staleRef}
          reviewed={stage.stale.reviewed}
          fresh={stage.preview}
          changed={stage.stale.changed}
          busy={saving}
          onConfirmFresh={() => onStage({ ...stage, confirming: true })}
        />
      )}
      <PolicyDiff before={stored} after={stage.action === "delete" ? {} : stage.proposed} label="to save" />
      {stage.preview && <ModeNotice modes={stage.preview.modes} targetMode={targetMode} />}
      {stage.preview ? (
        <PreviewPanel preview={stage.preview} />
      ) : previewFailed ? (
        <div className="state state-error" role="alert">
          Preview failed: {previewError instanceof Error ? previewError.message : String(previewError)}. Saving needs a
          preview.
        </div>
      ) : (
        <div className="state state-loading" aria-busy="true">
          Running the planner…
        </div>
      )}
      <div className={styles.actions}>
        <button
          type="button"
          className={styles.primary}
          disabled={!stage.preview || saving}
          aria-describedby={!stage.preview ? "review-waiting" : undefined}
          onClick={() => onStage({ ...stage, confirming: true })}
        >
          {stage.action === "delete" ? "Delete…" : "Save…"}
        </button>
        {!stage.preview && !previewFailed && (
          <span id="review-waiting" className={styles.waiting}>
            Waiting for the preview: saving needs to know what it changes.
          </span>
        )}
        <button type="button" onClick={() => onStage({ name: "edit" })}>
          Back to editing
        </button>
      </div>
      {saving && (
        <div className="state state-loading" aria-busy="true">
          Saving…
        </div>
      )}
      {stage.confirming && stage.preview && (
        <ConfirmDialog
          target={target}
          action={stage.action}
          preview={stage.preview}
          targetMode={targetMode}
          initialReason={reason}
          initialName={typedName}
          busy={saving}
          onCancel={() => onStage({ ...stage, confirming: false })}
          onConfirm={onConfirm}
        />
      )}
    </section>
  );
}
