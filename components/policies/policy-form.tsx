"use client";
// The admin's editor of one policy document: fields with effective values and sources →
// review (diff + planner preview with its blast radius and range warnings) → confirm (a
// modal dialog: losses first, the reason, the target's name when it matters) → PUT/DELETE
// with If-Match, X-Change-Reason and X-Preview-Digest → saved; or the stale preview (409),
// the three-way conflict view (412), or the field errors (422) back in the form.
import Link from "next/link";
import { useEffect, useMemo, useRef, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { ApiError } from "@/lib/client/fetch-json";
import { usePreviewPolicy, useSavePolicy } from "@/lib/client/hooks";
import { effectivePolicy } from "@/lib/planner/policy";
import type { PolicyResponse, PreviewResponse } from "@/lib/schema/api/policies";
import { BUILTIN_POLICY, DEFAULT_POLICY_TARGET, parseStoredPolicy, type PolicyDocument } from "@/lib/schema/policy";
import { ConfirmDialog } from "./confirm-dialog";
import { ConflictView } from "./conflict-view";
import { ErrorSummary } from "./error-summary";
import { FieldRow } from "./field-row";
import { cleanDoc, formValues, getPath, POLICY_FIELDS, withoutVersion } from "./fields";
import { ModeNotice } from "./mode-notice";
import { PolicyDiff } from "./policy-diff";
import { PreviewPanel, StaleNotice } from "./preview-panel";
import { policyResolver, issuesToErrors } from "./resolver";
import type { FieldSource } from "./sources";
import styles from "./policies.module.css";

interface Base {
  stored: unknown;
  modRevision: number;
}

type Action = "save" | "delete";
type Stage =
  | { name: "edit" }
  | { name: "review"; action: Action; proposed: PolicyDocument; preview: PreviewResponse | null; reviewed?: PreviewResponse; confirming: boolean }
  | { name: "saved"; modRevision: number; deleted: boolean }
  | { name: "conflict"; mine: PolicyDocument; current: unknown; currentModRevision: number }
  | { name: "error"; message: string; status: number };

const parsedOrNull = (doc: unknown): PolicyDocument | null => {
  if (doc === null || doc === undefined) return null;
  const p = parseStoredPolicy(doc);
  return p.ok ? p.value : null;
};

/** A change to start from other than the stored document: "revert to before" on the audit page. */
export interface StartingEdit {
  doc: unknown;
  reason: string;
  /** the override did not exist before: the revert deletes it */
  deletes: boolean;
}

export function PolicyForm({ data, start }: { data: PolicyResponse; start: StartingEdit | null }) {
  const target = data.target;
  const isDefault = target === DEFAULT_POLICY_TARGET;
  const [base, setBase] = useState<Base>({ stored: data.stored, modRevision: data.mod_revision });
  const [stage, setStage] = useState<Stage>({ name: "edit" });
  const [reason, setReason] = useState(start?.reason ?? "");
  // one object per stored default (parsed anew on every render it would defeat the memos below)
  const defaultDoc = useMemo(() => (isDefault ? null : parsedOrNull(data.default_stored)), [isDefault, data.default_stored]);
  const resolver = useMemo(() => policyResolver(defaultDoc), [defaultDoc]);
  const form = useForm<PolicyDocument>({ resolver, defaultValues: formValues(start && !start.deletes ? start.doc : data.stored), mode: "onSubmit", reValidateMode: "onChange", shouldFocusError: true });
  const values = useWatch({ control: form.control });
  const preview = usePreviewPolicy(target);
  const save = useSavePolicy(target);
  const flowRef = useRef<HTMLDivElement>(null);
  // each outcome (saved, conflict, error) takes the focus the closed dialog gave back
  useEffect(() => {
    if (stage.name === "edit") return;
    flowRef.current?.scrollIntoView({ block: "nearest" });
    flowRef.current?.querySelector<HTMLElement>("[data-takes-focus]")?.focus();
  }, [stage.name]);

  // What each field inherits (the layers below this document), and what it is with the edit.
  const inherited = useMemo(() => effectivePolicy(BUILTIN_POLICY, defaultDoc, null), [defaultDoc]);
  const proposedDoc = useMemo(() => cleanDoc(values), [values]);
  const live = useMemo(
    () => (isDefault ? effectivePolicy(BUILTIN_POLICY, proposedDoc, null) : effectivePolicy(BUILTIN_POLICY, defaultDoc, proposedDoc)),
    [proposedDoc, defaultDoc, isDefault],
  );
  const ownSource: FieldSource = isDefault ? "default" : "table";
  const inheritedSourceOf = (path: string): FieldSource => (isDefault ? "builtin" : (inherited.sources.fields[path] ?? "builtin"));
  const sourceOf = (path: string): FieldSource => live.sources.fields[path] ?? (getPath(proposedDoc, path) !== undefined ? ownSource : inheritedSourceOf(path));

  async function review(action: Action, proposed: PolicyDocument, reviewed?: PreviewResponse) {
    setStage({ name: "review", action, proposed, preview: null, reviewed, confirming: false });
    // a deletion previews the empty document: the table then inherits everything, as without an override
    const fresh = await preview.mutateAsync(action === "delete" ? {} : proposed).catch(() => null);
    setStage((s) => (s.name === "review" && s.proposed === proposed ? { ...s, preview: fresh } : s));
  }

  // a revert that deletes the override starts at its review
  useEffect(() => {
    if (start?.deletes && data.mod_revision > 0) void review("delete", {});
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function commit(action: Action, proposed: PolicyDocument, reviewed: PreviewResponse, why: string) {
    setReason(why);
    try {
      const saved = await save.mutateAsync({ doc: action === "delete" ? null : proposed, guard: { ifMatch: base.modRevision, reason: why, digest: reviewed.digest } });
      const stored = "stored" in saved ? saved.stored : null;
      setBase({ stored, modRevision: saved.mod_revision });
      form.reset(formValues(stored));
      setReason("");
      setStage({ name: "saved", modRevision: saved.mod_revision, deleted: action === "delete" });
    } catch (e) {
      if (!(e instanceof ApiError)) return setStage({ name: "error", message: String(e), status: 0 });
      const body: Record<string, unknown> = e.body ?? {};
      if (e.status === 412) return setStage({ name: "conflict", mine: proposed, current: body.stored ?? null, currentModRevision: Number(body.mod_revision ?? 0) });
      if (e.status === 409 && e.code === "preview_stale" && body.preview) {
        return setStage({ name: "review", action, proposed, preview: body.preview as PreviewResponse, reviewed, confirming: false });
      }
      const issues = (body.issues as { path: string; message: string }[] | undefined)?.filter((i) => i.path !== "reason" && i.path !== "digest");
      if (e.status === 422 && issues && issues.length > 0) {
        const errors = issuesToErrors(issues, values) as Record<string, unknown>;
        for (const issue of issues) form.setError(issue.path as never, { type: "server", message: (getPath(errors, issue.path) as { message: string }).message });
        setStage({ name: "edit" });
        form.setFocus(issues[0].path as never);
        return;
      }
      setStage({ name: "error", message: `${e.code}: ${e.message}`, status: e.status });
    }
  }

  const signInHref = `/signin?next=${encodeURIComponent(`/policies/${encodeURIComponent(target)}`)}`;
  return (
    <div data-testid="policy-editor">
      <p className="muted">
        Editing mod_revision <span data-testid="base-revision">{base.modRevision}</span>
        {base.modRevision === 0 ? " (no stored document yet: saving creates it)" : ""}. Empty fields inherit.
      </p>
      {start && <p className={styles.notice} data-testid="revert-notice">Reverting: the form holds the document from before that change. Review and save it like any other change.</p>}
      <ModeNotice modes={null} targetMode={live.effective.mode} />
      <form onSubmit={form.handleSubmit((doc) => review("save", cleanDoc(doc)))} noValidate>
        {form.formState.isSubmitted && <ErrorSummary errors={form.formState.errors} setFocus={form.setFocus} />}
        <table className={styles.fields}>
          <thead>
            <tr>
              <th>field</th>
              <th>{isDefault ? "fleet default" : "table override"}</th>
              <th>effective</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {POLICY_FIELDS.map((field) => (
              <FieldRow
                key={field.path}
                control={form.control}
                field={field}
                effective={getPath(live.effective, field.path)}
                source={sourceOf(field.path)}
                inherited={getPath(inherited.effective, field.path)}
                inheritedSource={inheritedSourceOf(field.path)}
              />
            ))}
          </tbody>
        </table>
        <h3>Stored vs proposed</h3>
        <PolicyDiff before={withoutVersion(base.stored)} after={proposedDoc} label="stored vs proposed" />
        <div className={styles.actions}>
          <button type="submit" className={styles.primary} disabled={save.isPending}>
            Review changes
          </button>
          <button type="button" onClick={() => { form.reset(formValues(base.stored)); setStage({ name: "edit" }); }}>
            Undo edits
          </button>
          {!isDefault && base.modRevision > 0 && (
            <button type="button" className={styles.danger} onClick={() => review("delete", {})}>
              Delete override
            </button>
          )}
        </div>
      </form>

      <div ref={flowRef}>
        {stage.name === "review" && (
          <section className="panel" aria-label="review" data-testid="review">
            <h2>{stage.action === "delete" ? "Review: delete the override" : "Review"}</h2>
            {stage.reviewed && stage.preview && <StaleNotice reviewed={stage.reviewed} fresh={stage.preview} />}
            <PolicyDiff before={withoutVersion(base.stored)} after={stage.action === "delete" ? {} : stage.proposed} label="to save" />
            {stage.preview ? (
              <PreviewPanel preview={stage.preview} />
            ) : preview.isError ? (
              <div className="state state-error" role="alert">Preview failed: {preview.error instanceof Error ? preview.error.message : String(preview.error)}. Saving needs a preview.</div>
            ) : (
              <div className="state state-loading" aria-busy="true">Running the planner…</div>
            )}
            <div className={styles.actions}>
              <button type="button" className={styles.primary} disabled={!stage.preview || save.isPending} onClick={() => setStage({ ...stage, confirming: true })}>
                {stage.action === "delete" ? "Delete…" : "Save…"}
              </button>
              <button type="button" onClick={() => setStage({ name: "edit" })}>
                Back to editing
              </button>
            </div>
            {save.isPending && <div className="state state-loading" aria-busy="true">Saving…</div>}
            {stage.confirming && stage.preview && (
              <ConfirmDialog
                target={target}
                action={stage.action}
                preview={stage.preview}
                targetMode={live.effective.mode}
                initialReason={reason}
                busy={save.isPending}
                onCancel={() => setStage({ ...stage, confirming: false })}
                onConfirm={(why) => commit(stage.action, stage.proposed, stage.preview!, why)}
              />
            )}
          </section>
        )}
        {stage.name === "saved" && (
          <div className={styles.saved} role="status" data-testid="saved" tabIndex={-1} data-takes-focus>
            {stage.deleted ? "Override deleted." : `Saved (mod_revision ${stage.modRevision}).`}{" "}
            {!isDefault && <Link href={`/tables/${encodeURIComponent(target)}`}>Open the table</Link>} · <Link href={`/audit?target=${encodeURIComponent(target)}`}>Audit</Link>
          </div>
        )}
        {stage.name === "error" && (
          <div className="state state-error" role="alert" tabIndex={-1} data-takes-focus>
            Not saved: {stage.message}
            {stage.status === 401 && (
              <>
                {" "}
                <Link href={signInHref}>Sign in again</Link> (your session may have expired).
              </>
            )}
          </div>
        )}
        {stage.name === "conflict" && (
          <ConflictView
            target={target}
            base={base.stored}
            current={stage.current}
            currentModRevision={stage.currentModRevision}
            mine={stage.mine}
            onContinue={(merged) => {
              setBase({ stored: stage.current, modRevision: stage.currentModRevision });
              form.reset(formValues(merged));
              setStage({ name: "edit" });
            }}
            onDiscard={() => {
              setBase({ stored: stage.current, modRevision: stage.currentModRevision });
              form.reset(formValues(stage.current));
              setStage({ name: "edit" });
            }}
          />
        )}
      </div>
    </div>
  );
}
