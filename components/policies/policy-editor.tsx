"use client";
// `/policies/[target]`: loads the policy, then the admin's form or, for everyone else, the
// read view. Edit controls are absent (not disabled) without an admin session.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { fetchPolicy, policyQueryKeys } from "./api";
import { DEFAULT_TARGET, PolicyForm } from "./policy-form";
import { PolicyReadView } from "./policy-read-view";
import styles from "./policies.module.css";

export function PolicyEditor({ target, canWrite, readOnly }: { target: string; canWrite: boolean; readOnly: boolean }) {
  const query = useQuery({ queryKey: policyQueryKeys.one(target), queryFn: () => fetchPolicy(target), refetchOnWindowFocus: false, staleTime: 5_000 });
  const title = target === DEFAULT_TARGET ? "Fleet default policy (_default)" : `Policy of ${target}`;
  return (
    <div>
      <div className="page-title">
        <h1 data-testid="policy-title">{title}</h1>
        {target !== DEFAULT_TARGET && <Link href={`/tables/${encodeURIComponent(target)}`}>table detail</Link>}
        <Link href={`/audit?target=${encodeURIComponent(target)}`}>audit</Link>
        <Link href="/policies">all policies</Link>
      </div>
      {readOnly && <div className={styles.notice} data-testid="read-only-notice">The console is read-only: no admin tokens are configured (CONSOLE_ADMIN_TOKENS), so policies cannot be changed here.</div>}
      {!readOnly && !canWrite && (
        <div className={styles.notice} data-testid="sign-in-notice">
          Viewing only. <Link href={`/signin?next=${encodeURIComponent(`/policies/${encodeURIComponent(target)}`)}`}>Sign in as an admin</Link> to edit.
        </div>
      )}
      {query.data === undefined ? (
        query.isError ? (
          <div className="state state-error" role="alert">Could not load the policy: {String(query.error instanceof Error ? query.error.message : query.error)}</div>
        ) : (
          <div className="state state-loading">Loading the policy…</div>
        )
      ) : (
        <>
          {query.data.stored_issue && (
            <div className="state state-error" role="alert">
              The stored document is not used ({query.data.stored_issue.reason}: {query.data.stored_issue.detail}).
            </div>
          )}
          {canWrite ? <PolicyForm key={target} data={query.data} /> : <PolicyReadView data={query.data} />}
        </>
      )}
    </div>
  );
}
