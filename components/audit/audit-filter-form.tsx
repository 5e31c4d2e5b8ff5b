"use client";
// The audit filters (console-api.md third version): target, actor, a UTC time window and
// words of the reason. Applying them replaces the URL, so a filtered log can be shared.
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import type { AuditFilters } from "@/lib/client/resources/audit";
import { auditHref, hasFilters, utcInputMs, utcInputValue } from "./filters";
import styles from "@/components/policies/policies.module.css";

export function AuditFilterForm({ filters, revision }: { filters: AuditFilters; revision: number | null }) {
  const router = useRouter();
  const id = useId();
  const [draft, setDraft] = useState({
    target: filters.target_q ?? filters.target ?? "",
    actor: filters.actor ?? "",
    from: utcInputValue(filters.from_ms),
    to: utcInputValue(filters.to_ms),
    q: filters.q ?? "",
  });
  const field = (key: keyof typeof draft) => ({
    id: `${id}-${key}`,
    value: draft[key],
    onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [key]: e.target.value }),
  });
  const apply = () => {
    const text = (v: string) => (v.trim() === "" ? null : v.trim());
    router.replace(
      auditHref(
        {
          // the box finds a table by any part of its name; an exact `target` from a link becomes a substring here
          target: null,
          target_q: text(draft.target),
          actor: text(draft.actor),
          from_ms: utcInputMs(draft.from),
          to_ms: utcInputMs(draft.to),
          q: text(draft.q),
        },
        revision,
      ),
    );
  };
  return (
    <form
      className={styles.filters}
      aria-label="filter the audit log"
      data-testid="audit-filters"
      onSubmit={(e) => {
        e.preventDefault();
        apply();
      }}
    >
      <label htmlFor={`${id}-target`}>Table contains</label>
      <input {...field("target")} placeholder="any (or _default)" data-testid="audit-filter-target" />
      <label htmlFor={`${id}-actor`}>Actor</label>
      <input {...field("actor")} placeholder="any" data-testid="audit-filter-actor" />
      <label htmlFor={`${id}-from`}>From (UTC)</label>
      <input {...field("from")} type="datetime-local" step={1} data-testid="audit-filter-from" />
      <label htmlFor={`${id}-to`}>To (UTC)</label>
      <input {...field("to")} type="datetime-local" step={1} data-testid="audit-filter-to" />
      <label htmlFor={`${id}-q`}>Reason contains</label>
      <input {...field("q")} placeholder="any words" data-testid="audit-filter-q" />
      <button type="submit" className={styles.primary}>
        Filter
      </button>
      {hasFilters(filters) && (
        <button
          type="button"
          onClick={() =>
            router.replace(
              auditHref({ target: null, target_q: null, actor: null, from_ms: null, to_ms: null, q: null }, revision),
            )
          }
        >
          Clear filters
        </button>
      )}
    </form>
  );
}
