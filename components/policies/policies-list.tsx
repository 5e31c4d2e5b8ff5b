"use client";
// `/policies`: the fleet default and every table with an override, plus a way to open any
// table's policy by name.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { usePolicyList } from "@/lib/client/hooks";
import { usePinnedRevision, withRevision } from "@/lib/client/revision";
import { DEFAULT_POLICY_TARGET } from "@/lib/schema/policy";
import { flattenDoc, labelOf, showValue } from "./fields";
import { formatCount } from "@/components/ui/format";

function Overrides({ doc }: { doc: unknown }) {
  const leaves = [...flattenDoc(doc)].filter(([p]) => p !== "v");
  if (leaves.length === 0) return <span className="muted">nothing set</span>;
  return <span>{leaves.map(([p, v]) => `${labelOf(p)}: ${showValue(v)}`).join(" · ")}</span>;
}

export function PoliciesList({ canWrite, readOnly }: { canWrite: boolean; readOnly: boolean }) {
  const query = usePolicyList();
  const pinned = usePinnedRevision();
  const router = useRouter();
  const href = (target: string) => withRevision(`/policies/${encodeURIComponent(target)}`, pinned);
  const [name, setName] = useState("");
  return (
    <div>
      <div className="page-title">
        <h1>Policies</h1>
        {query.data && <span className="muted">etcd revision {formatCount(query.data.revision)}</span>}
        <Link href={withRevision("/audit", pinned)}>audit log</Link>
      </div>
      {readOnly && (
        <p className="muted" data-testid="read-only-notice">
          Read-only: no admin tokens are configured.
        </p>
      )}
      {!readOnly && !canWrite && (
        <p className="muted">
          Viewing only. <Link href="/signin?next=/policies">Sign in as an admin</Link> to edit.
        </p>
      )}
      <form
        className="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          const t = name.trim();
          if (t.length > 0 && t.length <= 512) router.push(href(t));
        }}
      >
        <label htmlFor="policy-target">Table</label>
        <input
          id="policy-target"
          type="search"
          placeholder="table name (target)"
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={512}
        />
        <button type="submit">{canWrite ? "Open policy to edit" : "Open policy"}</button>
      </form>
      {query.data === undefined ? (
        query.isError ? (
          <div className="state state-error">Could not load policies: {String((query.error as Error).message)}</div>
        ) : (
          <div className="state state-loading">Loading policies…</div>
        )
      ) : (
        <table className="data" data-testid="policies-list">
          <thead>
            <tr>
              <th>target</th>
              <th>overrides</th>
              <th className="num">mod_revision</th>
            </tr>
          </thead>
          <tbody>
            <tr data-target={DEFAULT_POLICY_TARGET}>
              <td>
                <Link href={href(DEFAULT_POLICY_TARGET)}>{DEFAULT_POLICY_TARGET} (fleet default)</Link>
              </td>
              <td>
                {query.data.default.mod_revision === 0 ? (
                  <span className="muted">built-in defaults only</span>
                ) : (
                  <Overrides doc={query.data.default.stored} />
                )}
              </td>
              <td className="num">{query.data.default.mod_revision}</td>
            </tr>
            {query.data.tables.map((t) => (
              <tr key={t.target} data-target={t.target}>
                <td className="target">
                  <Link href={href(t.target)}>{t.target}</Link>
                </td>
                <td>
                  {t.stored_issue ? (
                    <span className="tag tag-bad">{t.stored_issue.reason}</span>
                  ) : (
                    <Overrides doc={t.stored} />
                  )}
                </td>
                <td className="num">{t.mod_revision}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {query.data && query.data.tables.length === 0 && <p className="muted">No table has its own policy yet.</p>}
    </div>
  );
}
