"use client";
// The admin's editor of one policy document: fields with effective values and sources →
// review (diff + planner preview with its blast radius and range warnings) → confirm (a
// modal dialog: losses first, the reason, the target's name when it matters) → PUT/DELETE
// with If-Match, X-Change-Reason and X-Preview-Digest → saved; or the stale preview (409), the
// takeover gate's refusal with its override (409 takeover_not_ready),
// the three-way conflict view (412), or the field errors (422) back in the form.
import Link from "next/link";
import { useEffect, useMemo, useRef, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { ApiError } from "@/lib/client/fetch-json";
import { usePreviewPolicy, useSavePolicy } from "@/lib/client/hooks";
import { effectivePolicy, validatePolicy } from "@/lib/planner/policy";
import type { DecisionChangesBody, PolicyResponse, PreviewResponse } from "@/lib/schema/api/policies";
import { BUILTIN_POLICY, DEFAULT_POLICY_TARGET, parseStoredPolicy, type PolicyDocument } from "@/lib/schema/policy";
import { GateRefusal, type GateOverride } from "@/components/takeover/gate-override";
import type { TakeoverGate } from "@/lib/schema/api/takeover";
import { ConflictView } from "./conflict-view";
import { ErrorSummary } from "./error-summary";
import { FieldRow } from "./field-row";
import { cleanDoc, diffDocs, flattenDoc, formValues, getPath, POLICY_FIELDS, setPath, withoutVersion } from "./fields";
import { ModeNotice } from "./mode-notice";
import { DELETE_ALL, reviewStage, type Action, type Stage, type Stale } from "./policy-edit-stages";
import { PolicyDiff } from "./policy-diff";
import { ReviewPanel } from "./review-panel";
import { policyResolver, issuesToErrors } from "./resolver";
import type { FieldSource } from "./sources";
import styles from "./policies.module.css";

interface Base {
  stored: unknown;
  modRevision: number;
}

const parsedOrNull = (doc: unknown): PolicyDocument | null => {
  if (doc === null || doc === undefined) return null;
  const p = parseStoredPolicy(doc);
  return p.ok ? p.value : null;
};

/** A change to start from other than the stored document: "revert to before" on the audit page, or a prefill. */
export interface StartingEdit {
  /** the audit page's "revert to before", or a link's `?prefill=` (the facts page) */
  origin: "revert" | "prefill";
  doc: unknown;
  reason: string;
  /** the override did not exist before: the revert deletes it */
  deletes: boolean;
}

/** What the form starts from, in words that match what it shows (never "from before" beside the stored values). */
function startingWords(start: StartingEdit, nothingToSave: boolean): string {
  if (start.origin === "prefill")
    return nothingToSave
      ? "The link proposes the document that is already stored: there is nothing to save."
      : "The form holds the document the link proposes (its changes are under Stored vs proposed). Review and save it like any other change.";
  if (start.deletes)
    return "Reverting: before that change this table had no override, so reverting deletes it. The form shows the override as stored now; review the deletion below.";
  return nothingToSave
    ? "Reverting: the document from before that change is already the stored one (changed back since): there is nothing to save."
    : "Reverting: the form holds the document from before that change (what changes is under Stored vs proposed). Review and save it like any other change.";
}

export function PolicyForm({ data, start }: { data: PolicyResponse; start: StartingEdit | null }) {
  const target = data.target;
  const isDefault = target === DEFAULT_POLICY_TARGET;
  const [base, setBase] = useState<Base>({ stored: data.stored, modRevision: data.mod_revision });
  // a revert that deletes the override starts at its review
  const startsDeleting = Boolean(start?.deletes) && data.mod_revision > 0;
  const [stage, setStage] = useState<Stage>(() =>
    startsDeleting ? reviewStage("delete", DELETE_ALL) : { name: "edit" },
  );
  const [reason, setReason] = useState(start?.reason ?? "");
  const [typedName, setTypedName] = useState("");
  const staleRef = useRef<HTMLDivElement>(null);
  // one object per stored default (parsed anew on every render it would defeat the memos below)
  const defaultDoc = useMemo(
    () => (isDefault ? null : parsedOrNull(data.default_stored)),
    [isDefault, data.default_stored],
  );
  const resolver = useMemo(() => policyResolver(defaultDoc), [defaultDoc]);
  const form = useForm<PolicyDocument>({
    resolver,
    defaultValues: formValues(start && !start.deletes ? start.doc : data.stored),
    mode: "onSubmit",
    reValidateMode: "onChange",
    shouldFocusError: true,
  });
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
  // a refusal as stale is shown where the admin looks: the review may be thousands of rows long
  const staleCount = stage.name === "review" ? (stage.stale?.count ?? 0) : 0;
  useEffect(() => {
    if (staleCount === 0) return;
    staleRef.current?.scrollIntoView({ block: "center" });
    staleRef.current?.focus({ preventScroll: true });
  }, [staleCount]);

  // What each field inherits (the layers below this document), and what it is with the edit.
  const inherited = useMemo(() => effectivePolicy(BUILTIN_POLICY, defaultDoc, null), [defaultDoc]);
  const proposedDoc = useMemo(() => cleanDoc(values), [values]);
  // console-api.md third version: a save equal to the stored document is refused (422 no_change); say so before review
  const nothingToSave = useMemo(
    () => diffDocs(withoutVersion(base.stored), proposedDoc).length === 0,
    [base.stored, proposedDoc],
  );
  // The effective column takes only values that pass validation: a typed "abc" or -5 is
  // named in its error and shown as not used, never as the effective value "abc table".
  const invalidPaths = useMemo(() => {
    const checked = validatePolicy(proposedDoc, { defaultDoc: isDefault ? null : defaultDoc });
    return new Set(checked.ok ? [] : checked.issues.map((i) => i.path));
  }, [proposedDoc, defaultDoc, isDefault]);
  const usableDoc = useMemo(() => {
    if (invalidPaths.size === 0) return proposedDoc;
    const out: Record<string, unknown> = {};
    for (const [path, value] of flattenDoc(proposedDoc)) if (!invalidPaths.has(path)) setPath(out, path, value);
    return out as PolicyDocument;
  }, [proposedDoc, invalidPaths]);
  const live = useMemo(
    () =>
      isDefault
        ? effectivePolicy(BUILTIN_POLICY, usableDoc, null)
        : effectivePolicy(BUILTIN_POLICY, defaultDoc, usableDoc),
    [usableDoc, defaultDoc, isDefault],
  );
  const ownSource: FieldSource = isDefault ? "default" : "table";
  const inheritedSourceOf = (path: string): FieldSource =>
    isDefault ? "builtin" : (inherited.sources.fields[path] ?? "builtin");
  const sourceOf = (path: string): FieldSource =>
    live.sources.fields[path] ?? (getPath(usableDoc, path) !== undefined ? ownSource : inheritedSourceOf(path));

  /** The preview of a review, shown once it lands (unless the admin moved on). */
  function loadPreview(action: Action, proposed: PolicyDocument): Promise<void> {
    // a deletion previews the empty document: the table then inherits everything, as without an override
    return preview.mutateAsync(action === "delete" ? {} : proposed).then(
      (fresh) => setStage((s) => (s.name === "review" && s.proposed === proposed ? { ...s, preview: fresh } : s)),
      () => setStage((s) => (s.name === "review" && s.proposed === proposed ? { ...s, preview: null } : s)),
    );
  }

  async function review(action: Action, proposed: PolicyDocument) {
    setStage(reviewStage(action, proposed));
    await loadPreview(action, proposed);
  }

  useEffect(() => {
    if (startsDeleting) void loadPreview("delete", DELETE_ALL);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function commit(
    action: Action,
    proposed: PolicyDocument,
    reviewed: PreviewResponse,
    why: string,
    typed: string,
    stale: Stale | undefined,
    override?: GateOverride,
  ) {
    setReason(why);
    setTypedName(typed);
    try {
      const saved = await save.mutateAsync({
        doc: action === "delete" ? null : proposed,
        guard: { ifMatch: base.modRevision, reason: why, digest: reviewed.digest, override },
      });
      const stored = "stored" in saved ? saved.stored : null;
      setBase({ stored, modRevision: saved.mod_revision });
      form.reset(formValues(stored));
      setReason("");
      setTypedName("");
      setStage({ name: "saved", modRevision: saved.mod_revision, deleted: action === "delete" });
    } catch (e) {
      if (!(e instanceof ApiError)) return setStage({ name: "error", message: String(e), status: 0 });
      const body: Record<string, unknown> = e.body ?? {};
      if (e.status === 412)
        return setStage({
          name: "conflict",
          mine: proposed,
          current: body.stored ?? null,
          currentModRevision: Number(body.mod_revision ?? 0),
        });
      if (e.status === 409 && e.code === "preview_stale" && body.preview) {
        const changed = (body.changed ?? null) as DecisionChangesBody | null;
        return setStage({
          name: "review",
          action,
          proposed,
          preview: body.preview as PreviewResponse,
          stale: { reviewed, changed, count: (stale?.count ?? 0) + 1 },
          confirming: false,
        });
      }
      if (e.status === 409 && e.code === "takeover_not_ready" && Array.isArray(body.gates))
        return setStage({
          name: "gated",
          retry: (o) => void commit(action, proposed, reviewed, why, typed, stale, o),
          message: e.message,
          gates: body.gates as TakeoverGate[],
        });
      const issues = (body.issues as { path: string; message: string }[] | undefined)?.filter(
        (i) => i.path !== "reason" && i.path !== "digest",
      );
      if (e.status === 422 && issues && issues.length > 0) {
        const errors = issuesToErrors(issues, values) as Record<string, unknown>;
        for (const issue of issues)
          form.setError(issue.path as never, {
            type: "server",
            message: (getPath(errors, issue.path) as { message: string }).message,
          });
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
      {start && (
        <p className={styles.notice} data-testid={start.origin === "revert" ? "revert-notice" : "prefill-notice"}>
          {startingWords(start, nothingToSave)}
        </p>
      )}
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
                typedUnused={invalidPaths.has(field.path) && getPath(proposedDoc, field.path) !== undefined}
              />
            ))}
          </tbody>
        </table>
        <h3>Stored vs proposed</h3>
        <PolicyDiff before={withoutVersion(base.stored)} after={proposedDoc} label="stored vs proposed" />
        <div className={styles.actions}>
          <button
            type="submit"
            className={styles.primary}
            disabled={save.isPending || nothingToSave}
            aria-describedby={nothingToSave ? "nothing-to-save" : undefined}
          >
            Review changes
          </button>
          <button
            type="button"
            onClick={() => {
              form.reset(formValues(base.stored));
              setStage({ name: "edit" });
            }}
          >
            Undo edits
          </button>
          {!isDefault && base.modRevision > 0 && (
            <button type="button" className={styles.danger} onClick={() => review("delete", {})}>
              Delete override
            </button>
          )}
          {nothingToSave && !start?.deletes && (
            <span id="nothing-to-save" className={styles.waiting} data-testid="nothing-to-save">
              Nothing to save: the form equals the stored document. Change a field to review.
            </span>
          )}
        </div>
      </form>

      <div ref={flowRef}>
        {stage.name === "review" && (
          <ReviewPanel
            stage={stage}
            stored={withoutVersion(base.stored)}
            target={target}
            targetMode={live.effective.mode}
            reason={reason}
            typedName={typedName}
            saving={save.isPending}
            previewFailed={preview.isError}
            previewError={preview.error}
            staleRef={staleRef}
            onStage={setStage}
            onConfirm={(why, typed) => commit(stage.action, stage.proposed, stage.preview!, why, typed, stage.stale)}
          />
        )}
        {stage.name === "saved" && (
          <div className={styles.saved} role="status" data-testid="saved" tabIndex={-1} data-takes-focus>
            {stage.deleted ? "Override deleted." : `Saved (mod_revision ${stage.modRevision}).`}{" "}
            {!isDefault && <Link href={`/tables/${encodeURIComponent(target)}`}>Open the table</Link>} ·{" "}
            <Link href={`/audit?target=${encodeURIComponent(target)}`}>Audit</Link>
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
        {stage.name === "gated" && (
          <GateRefusal
            key={stage.message}
            message={stage.message}
            gates={stage.gates}
            busy={save.isPending}
            onOverride={stage.retry}
          />
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
