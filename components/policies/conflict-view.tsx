"use client";
// On 412: someone else saved first. The three-way merge keeps their change and yours;
// each field that both of you changed, to different values, is marked and asks which
// value wins; nothing continues until every one is decided, so nothing is overwritten
// silently. The version marker `v` is never shown as a change.
import { useState } from "react";
import type { PolicyDocument } from "@/lib/schema/policy";
import { labelOf, resolveConflicts, showValue, threeWay, withoutVersion } from "./fields";
import { PolicyDiff } from "./policy-diff";
import styles from "./policies.module.css";
import { formatCount } from "@/components/ui/format";

export function ConflictView({
  target,
  base,
  current,
  currentModRevision,
  mine,
  onContinue,
  onDiscard,
}: {
  target: string;
  base: unknown;
  current: unknown;
  currentModRevision: number;
  mine: PolicyDocument;
  onContinue: (merged: PolicyDocument) => void;
  onDiscard: () => void;
}) {
  const { merged, conflicts } = threeWay(base, current, mine);
  const [choice, setChoice] = useState<Record<string, "theirs" | "mine">>({});
  const undecided = conflicts.filter((c) => !choice[c.path]).length;
  return (
    <section
      className={styles.conflict}
      role="alert"
      data-testid="conflict-view"
      aria-label="conflict"
      tabIndex={-1}
      data-takes-focus
    >
      <h3>
        Someone else saved the policy of <span className="target">{target}</span> first (now mod_revision{" "}
        {formatCount(currentModRevision)})
      </h3>
      <p>
        Nothing of yours was written. Their change and yours are combined below; where you both changed a field, choose
        which value wins.
      </p>
      <h4>Their change</h4>
      <PolicyDiff before={withoutVersion(base)} after={withoutVersion(current)} label="by them" />
      <h4>Your change</h4>
      <PolicyDiff before={withoutVersion(base)} after={withoutVersion(mine)} label="by you" />
      {conflicts.length > 0 && (
        <fieldset data-testid="both-changed">
          <legend>
            {conflicts.length === 1 ? "1 field" : `${conflicts.length} fields`} you both changed: which value wins?
          </legend>
          {conflicts.map((c) => (
            <div key={c.path} className={styles.choice} data-testid="both-changed-field" data-path={c.path}>
              <strong>{labelOf(c.path)}</strong> <span className="muted">(was {showValue(c.base)})</span>
              <label>
                <input
                  type="radio"
                  name={`win-${c.path}`}
                  checked={choice[c.path] === "theirs"}
                  onChange={() => setChoice({ ...choice, [c.path]: "theirs" })}
                />{" "}
                theirs: {showValue(c.theirs)}
              </label>
              <label>
                <input
                  type="radio"
                  name={`win-${c.path}`}
                  checked={choice[c.path] === "mine"}
                  onChange={() => setChoice({ ...choice, [c.path]: "mine" })}
                />{" "}
                mine: {showValue(c.mine)}
              </label>
            </div>
          ))}
        </fieldset>
      )}
      <div className={styles.actions}>
        <button
          type="button"
          className={styles.primary}
          disabled={undecided > 0}
          onClick={() => onContinue(resolveConflicts(merged, conflicts, choice))}
        >
          {undecided > 0
            ? `Choose ${undecided === 1 ? "1 value" : `${undecided} values`} first`
            : "Continue with the combined change"}
        </button>
        <button type="button" onClick={onDiscard}>
          Discard my change
        </button>
      </div>
    </section>
  );
}
