"use client";
// The admin's editor of one policy document: fields with effective values and sources →
// review (diff of stored vs proposed + planner preview) → confirm (names the table and the
// number of affected tables) → PUT with If-Match → saved, or the three-way conflict view.
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useMemo, useRef, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { effectivePolicy } from "@/lib/planner/policy";
import { BUILTIN_POLICY, parseStoredPolicy, type PolicyDocument } from "@/lib/schema/policy";
import { deletePolicy, policyQueryKeys, previewPolicy, savePolicy, type FieldSource, type PolicyResponse, type PreviewResult } from "./api";
import { ConflictView } from "./conflict-view";
import { FieldRow } from "./field-row";
import { cleanDoc, formValues, getPath, POLICY_FIELDS, rebaseEdit, withoutVersion } from "./fields";
import { PolicyDiff } from "./policy-diff";
import { PreviewPanel } from "./preview-panel";
import { policyResolver } from "./resolver";
import styles from "./policies.module.css";

export const DEFAULT_TARGET = "_default";

interface Base {
  stored: unknown;
  modRevision: number;
}

type Stage =
  | { name: "edit" }
  | { name: "review"; proposed: PolicyDocument; preview: PreviewResult | null; previewError: string | null }
  | { name: "confirm"; proposed: PolicyDocument; preview: PreviewResult | null }
  | { name: "saving" }
  | { name: "saved"; modRevision: number; deleted: boolean }
  | { name: "conflict"; mine: PolicyDocument | null; current: unknown; currentModRevision: number }
  | { name: "confirm-delete" }
  | { name: "error"; message: string; status: number };

const parsedOrNull = (doc: unknown): PolicyDocument | null => {
  if (doc === null || doc === undefined) return null;
  const p = parseStoredPolicy(doc);
  return p.ok ? p.value : null;
};

export function PolicyForm({ data }: { data: PolicyResponse }) {
  const target = data.target;
  const isDefault = target === DEFAULT_TARGET;
  const queryClient = useQueryClient();
  const [base, setBase] = useState<Base>({ stored: data.stored, modRevision: data.mod_revision });
  const [stage, setStage] = useState<Stage>({ name: "edit" });
  const defaultDoc = isDefault ? null : parsedOrNull(data.default_stored);
  const resolver = useMemo(() => policyResolver(defaultDoc), [defaultDoc]);
  const form = useForm<PolicyDocument>({ resolver, defaultValues: formValues(data.stored), mode: "onChange" });
  const values = useWatch({ control: form.control });
  // each step of the flow (review, confirm, conflict, result) is brought into view
  const flowRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (stage.name !== "edit") flowRef.current?.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }, [stage.name]);

  // What each field inherits (the layers below this document), and what it is with the edit.
  const inherited = useMemo(() => effectivePolicy(BUILTIN_POLICY, defaultDoc, null), [defaultDoc]);
  const live = useMemo(() => {
    const doc = cleanDoc(values);
    return isDefault ? effectivePolicy(BUILTIN_POLICY, doc, null) : effectivePolicy(BUILTIN_POLICY, defaultDoc, doc);
  }, [values, defaultDoc, isDefault]);
  const ownSource: FieldSource = isDefault ? "default" : "table";
  const inheritedSourceOf = (path: string): FieldSource => (isDefault ? "builtin" : ((inherited.sources.fields[path] as FieldSource) ?? "builtin"));
  const sourceOf = (path: string): FieldSource => {
    const s = live.sources.fields[path] as FieldSource | undefined;
    if (s) return s;
    return getPath(cleanDoc(values), path) !== undefined ? ownSource : inheritedSourceOf(path);
  };

  const refresh = () => queryClient.invalidateQueries({ queryKey: policyQueryKeys.all });

  async function review(doc: PolicyDocument) {
    setStage({ name: "review", proposed: doc, preview: null, previewError: null });
    const outcome = await previewPolicy(target, doc);
    setStage((s) =>
      s.name === "review" && s.proposed === doc
        ? { ...s, preview: outcome.ok ? outcome.body : null, previewError: outcome.ok ? null : `${outcome.error.code}: ${outcome.error.message}` }
        : s,
    );
  }

  async function save(proposed: PolicyDocument) {
    setStage({ name: "saving" });
    const outcome = await savePolicy(target, proposed, base.modRevision);
    if (outcome.ok) {
      setBase({ stored: outcome.body.stored, modRevision: outcome.body.mod_revision });
      form.reset(formValues(outcome.body.stored));
      setStage({ name: "saved", modRevision: outcome.body.mod_revision, deleted: false });
      await refresh();
      return;
    }
    if (outcome.status === 412) {
      setStage({ name: "conflict", mine: proposed, current: outcome.error.stored ?? null, currentModRevision: outcome.error.mod_revision ?? 0 });
      return;
    }
    if (outcome.status === 422 && outcome.error.issues) {
      for (const issue of outcome.error.issues) form.setError((issue.path || "root") as never, { type: "server", message: issue.message });
      setStage({ name: "edit" });
      return;
    }
    setStage({ name: "error", message: `${outcome.error.code}: ${outcome.error.message}`, status: outcome.status });
  }

  async function remove() {
    setStage({ name: "saving" });
    const outcome = await deletePolicy(target, base.modRevision);
    if (outcome.ok) {
      setBase({ stored: null, modRevision: 0 });
      form.reset(formValues(null));
      setStage({ name: "saved", modRevision: 0, deleted: true });
      await refresh();
      return;
    }
    if (outcome.status === 412) {
      setStage({ name: "conflict", mine: null, current: outcome.error.stored ?? null, currentModRevision: outcome.error.mod_revision ?? 0 });
      return;
    }
    setStage({ name: "error", message: `${outcome.error.code}: ${outcome.error.message}`, status: outcome.status });
  }

  const proposedNow = cleanDoc(values);
  const affected = (p: PreviewResult | null) => (p ? p.changed.length : null);

  return (
    <div data-testid="policy-editor">
      <p className="muted">
        Editing mod_revision <span data-testid="base-revision">{base.modRevision}</span>
        {base.modRevision === 0 ? " (no stored document yet: saving creates it)" : ""}. Empty fields inherit.
      </p>
      <form onSubmit={form.handleSubmit((doc) => review(cleanDoc(doc)))} noValidate>
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
        <PolicyDiff before={withoutVersion(base.stored)} after={proposedNow} label="stored vs proposed" />
        <div className={styles.actions}>
          <button type="submit" className={styles.primary} disabled={stage.name === "saving"}>
            Review changes
          </button>
          <button type="button" onClick={() => { form.reset(formValues(base.stored)); setStage({ name: "edit" }); }}>
            Undo edits
          </button>
          {!isDefault && base.modRevision > 0 && (
            <button type="button" className={styles.danger} onClick={() => setStage({ name: "confirm-delete" })}>
              Delete override
            </button>
          )}
        </div>
      </form>

      <div ref={flowRef}>
      {stage.name === "review" && (
        <section className="panel" aria-label="review">
          <h2>Review</h2>
          <PolicyDiff before={withoutVersion(base.stored)} after={stage.proposed} label="to save" />
          {stage.preview ? <PreviewPanel preview={stage.preview} /> : stage.previewError ? <div className="state state-error">Preview failed: {stage.previewError}</div> : <div className="state state-loading">Running the planner…</div>}
          <div className={styles.actions}>
            <button type="button" className={styles.primary} onClick={() => setStage({ name: "confirm", proposed: stage.proposed, preview: stage.preview })}>
              Save…
            </button>
            <button type="button" onClick={() => setStage({ name: "edit" })}>
              Back to editing
            </button>
          </div>
        </section>
      )}

      {stage.name === "confirm" && (
        <section className={styles.confirm} role="dialog" aria-label="confirm save" data-testid="confirm">
          <p>
            Save the policy of <strong className="target">{isDefault ? "the fleet default (_default)" : target}</strong>?{" "}
            {affected(stage.preview) === null ? "The preview did not run." : `${affected(stage.preview)} ${affected(stage.preview) === 1 ? "table changes" : "tables change"} class, score or verdict.`}
          </p>
          <div className={styles.actions}>
            <button type="button" className={styles.primary} onClick={() => save(stage.proposed)}>
              Confirm save
            </button>
            <button type="button" onClick={() => setStage({ name: "edit" })}>
              Cancel
            </button>
          </div>
        </section>
      )}

      {stage.name === "confirm-delete" && (
        <section className={styles.confirm} role="dialog" aria-label="confirm delete" data-testid="confirm-delete">
          <p>
            Delete the override of <strong className="target">{target}</strong>? It then inherits the fleet default.
          </p>
          <div className={styles.actions}>
            <button type="button" className={styles.danger} onClick={remove}>
              Confirm delete
            </button>
            <button type="button" onClick={() => setStage({ name: "edit" })}>
              Cancel
            </button>
          </div>
        </section>
      )}

      {stage.name === "saving" && <div className="state state-loading">Saving…</div>}
      {stage.name === "saved" && (
        <div className={styles.saved} role="status" data-testid="saved">
          {stage.deleted ? "Override deleted." : `Saved (mod_revision ${stage.modRevision}).`}{" "}
          {!isDefault && <Link href={`/tables/${encodeURIComponent(target)}`}>Open the table</Link>} · <Link href={`/audit?target=${encodeURIComponent(target)}`}>Audit</Link>
        </div>
      )}
      {stage.name === "error" && (
        <div className="state state-error" role="alert">
          Not saved: {stage.message}
          {stage.status === 401 && (
            <>
              {" "}
              <Link href={`/signin?next=${encodeURIComponent(`/policies/${encodeURIComponent(target)}`)}`}>Sign in again</Link> (your session may have expired).
            </>
          )}
        </div>
      )}
      {stage.name === "conflict" && (
        <ConflictView
          target={target}
          base={withoutVersion(base.stored)}
          current={withoutVersion(stage.current)}
          currentModRevision={stage.currentModRevision}
          mine={stage.mine}
          onRedo={() => {
            const redone = stage.mine === null ? null : rebaseEdit(withoutVersion(base.stored), withoutVersion(stage.current), stage.mine);
            setBase({ stored: stage.current, modRevision: stage.currentModRevision });
            form.reset(formValues(redone ?? stage.current));
            setStage(stage.mine === null && stage.currentModRevision > 0 ? { name: "confirm-delete" } : { name: "edit" });
          }}
          onDiscard={() => {
            setBase({ stored: stage.current, modRevision: stage.currentModRevision });
            form.reset(formValues(stage.current));
            setStage({ name: "edit" });
            void refresh();
          }}
        />
      )}
      </div>
    </div>
  );
}
