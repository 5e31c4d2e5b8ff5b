"use client";
// `/policies/[target]`: loads the policy (at the pinned revision when the console is
// pinned), then the admin's form or, for everyone else and for the past, the read view.
// Edit controls are absent (not disabled) without an admin session. `?revert=<audit id>`
// opens the form holding the document from before that audited change.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { usePolicy, usePreviewPolicy } from "@/lib/client/hooks";
import { fetchAudit, NO_AUDIT_FILTERS } from "@/lib/client/resources/audit";
import { usePinnedRevision, withRevision } from "@/lib/client/revision";
import { DEFAULT_POLICY_TARGET, type PolicyDocument } from "@/lib/schema/policy";
import { QueryState } from "@/components/ui/query-state";
import { prefillDoc, PREFILL_PARAM } from "@/components/takeover/prefill";
import { PolicyForm, type StartingEdit } from "./policy-form";
import { PolicyReadView } from "./policy-read-view";
import { PolicyDiff } from "./policy-diff";
import { PreviewPanel } from "./preview-panel";
import { withoutVersion } from "./fields";
import styles from "./policies.module.css";
import { formatCount, formatTime } from "@/components/ui/format";

/** The audit entry `id` of `target`: ids are fixed-width, so `id + "0"` is the first key after it. */
function useRevertTo(target: string): { start: StartingEdit | null; loading: boolean } {
  const id = useSearchParams().get("revert");
  const query = useQuery({
    queryKey: ["audit", "entry", target, id],
    queryFn: ({ signal }) =>
      fetchAudit({ filters: { ...NO_AUDIT_FILTERS, target }, cursor: `${id}0`, revision: null }, signal),
    enabled: id !== null && /^[\w.-]{1,127}$/.test(id),
    staleTime: Infinity,
  });
  const entry = query.data?.entries.find((e) => e.id === id);
  if (!entry) return { start: null, loading: query.isFetching };
  // before the change the table had no override: the revert deletes it (`_default` cannot be deleted: it empties instead)
  const deletes = entry.before === null && target !== DEFAULT_POLICY_TARGET;
  return {
    start: {
      origin: "revert",
      doc: entry.before ?? {},
      deletes,
      reason: `Revert the change of ${formatTime(entry.at_ms)} by ${entry.actor}`,
    },
    loading: false,
  };
}

/** `?prefill=<document>` (the facts page's "preview this default") starts the form from that document. */
function usePrefill(revert: { start: StartingEdit | null; loading: boolean }): {
  start: StartingEdit | null;
  loading: boolean;
} {
  const doc = prefillDoc(useSearchParams().get(PREFILL_PARAM));
  if (revert.start || revert.loading || !doc) return revert;
  return {
    start: { origin: "prefill", doc, deletes: false, reason: "Set from the fleet facts (/facts)" },
    loading: false,
  };
}

const query_ = (params: URLSearchParams) => (params.size > 0 ? `?${params.toString()}` : "");

/**
 * A link's proposed document (a `?prefill=` or `?revert=`) for someone who cannot edit here:
 * said, never dropped silently, with what it would change and how to act on it.
 */
function ProposedChange({
  target,
  start,
  stored,
  signInHref,
  canSignIn,
}: {
  target: string;
  start: StartingEdit;
  stored: unknown;
  signInHref: string;
  canSignIn: boolean;
}) {
  const preview = usePreviewPolicy(target);
  const proposed = start.deletes ? {} : start.doc;
  return (
    <section className={styles.notice} data-testid="proposed-change" aria-label="proposed change">
      <p style={{ marginTop: 0 }}>
        {start.origin === "prefill"
          ? "This link proposes a change to this policy (from the fleet facts). It is shown here, not saved:"
          : "This link reverts an audited change. It is shown here, not saved:"}{" "}
        {canSignIn ? (
          <>
            <Link href={signInHref}>sign in as an admin</Link> to review and save it.
          </>
        ) : (
          "only an admin on the live console can review and save it."
        )}
      </p>
      <PolicyDiff before={withoutVersion(stored)} after={proposed} label="proposed by the link" />
      {/* the preview is a read: anyone who may read may see what the change would do */}
      {preview.data ? (
        <PreviewPanel preview={preview.data} />
      ) : (
        <p>
          <button
            type="button"
            onClick={() => preview.mutate(proposed as PolicyDocument)}
            disabled={preview.isPending}
            data-testid="preview-proposed"
          >
            {preview.isPending ? "Running the planner…" : "Preview what it would change"}
          </button>
          {preview.isError && (
            <span className="state state-error" role="alert">
              {" "}
              Preview failed: {preview.error instanceof Error ? preview.error.message : String(preview.error)}
            </span>
          )}
        </p>
      )}
    </section>
  );
}

export function PolicyEditor({
  target,
  canWrite,
  readOnly,
  whyReadOnly = null,
}: {
  target: string;
  canWrite: boolean;
  readOnly: boolean;
  /** why this person may not edit this target (their rules, an expired session), in words; null: signed out or may edit */
  whyReadOnly?: string | null;
}) {
  const query = usePolicy(target);
  const pinned = usePinnedRevision();
  const revert = usePrefill(useRevertTo(target));
  const searchParams = useSearchParams();
  const title = target === DEFAULT_POLICY_TARGET ? "Fleet default policy (_default)" : `Policy of ${target}`;
  const editable = canWrite && pinned === null;
  return (
    <div>
      <div className="page-title">
        <h1 data-testid="policy-title">{title}</h1>
        {target !== DEFAULT_POLICY_TARGET && (
          <Link href={withRevision(`/tables/${encodeURIComponent(target)}`, pinned)}>table detail</Link>
        )}
        <Link href={withRevision(`/audit?target=${encodeURIComponent(target)}`, pinned)}>audit</Link>
        <Link href={withRevision("/policies", pinned)}>all policies</Link>
      </div>
      {readOnly && (
        <div className={styles.notice} data-testid="read-only-notice">
          The console is read-only: no admin tokens are configured (CONSOLE_ADMIN_TOKENS), so policies cannot be changed
          here.
        </div>
      )}
      {!readOnly && !canWrite && (
        <div className={styles.notice} data-testid="sign-in-notice">
          Viewing only.{" "}
          {whyReadOnly && (
            <>
              <span data-testid="read-only-why">{whyReadOnly}</span>{" "}
            </>
          )}
          <Link href={`/signin?next=${encodeURIComponent(`/policies/${encodeURIComponent(target)}`)}`}>
            Sign in as an admin
          </Link>{" "}
          to edit.
        </div>
      )}
      {canWrite && pinned !== null && (
        <div className={styles.notice} data-testid="pinned-notice">
          This is the policy stored at etcd revision {formatCount(pinned)}. Edits apply to the live policy:{" "}
          <Link href={`/policies/${encodeURIComponent(target)}`}>return to live</Link> to edit.
        </div>
      )}
      <QueryState query={query} what="the policy">
        {(data) => (
          <>
            {data.stored_issue && (
              <div className="state state-error" role="alert">
                The stored document is not used ({data.stored_issue.reason}: {data.stored_issue.detail}).
              </div>
            )}
            {!editable ? (
              <>
                {revert.start && (
                  <ProposedChange
                    target={target}
                    start={revert.start}
                    stored={data.stored}
                    signInHref={`/signin?next=${encodeURIComponent(`/policies/${encodeURIComponent(target)}${query_(searchParams)}`)}`}
                    canSignIn={!readOnly && !canWrite}
                  />
                )}
                <PolicyReadView data={data} />
              </>
            ) : revert.loading ? (
              <div className="state state-loading" aria-busy="true">
                Loading the change to revert…
              </div>
            ) : (
              <PolicyForm key={`${target}:${revert.start ? "revert" : "edit"}`} data={data} start={revert.start} />
            )}
          </>
        )}
      </QueryState>
    </div>
  );
}
