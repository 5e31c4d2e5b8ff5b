// On 412: what you started from, what is stored now, and your edit, side by side, with
// the two diffs, so the change can be redone on top of the stored version.
import { PolicyDiff } from "./policy-diff";
import styles from "./policies.module.css";

const pretty = (doc: unknown) => (doc === null || doc === undefined ? "(no document: inherits)" : JSON.stringify(doc, null, 2));

export function ConflictView({
  target,
  base,
  current,
  currentModRevision,
  mine,
  onRedo,
  onDiscard,
}: {
  target: string;
  base: unknown;
  current: unknown;
  currentModRevision: number;
  mine: unknown;
  onRedo: () => void;
  onDiscard: () => void;
}) {
  return (
    <section className={styles.conflict} role="alert" data-testid="conflict-view" aria-label="conflict">
      <h3>
        Someone else saved the policy of <span className="target">{target}</span> first (now mod_revision {currentModRevision})
      </h3>
      <p>Nothing of yours was written. Compare, then redo your change on top of what is stored now.</p>
      <div className={styles.three}>
        <div data-testid="conflict-base">
          <h3>What you started from</h3>
          <pre>{pretty(base)}</pre>
        </div>
        <div data-testid="conflict-current">
          <h3>Stored now</h3>
          <pre>{pretty(current)}</pre>
        </div>
        <div data-testid="conflict-mine">
          <h3>Your edit</h3>
          <pre>{pretty(mine)}</pre>
        </div>
      </div>
      <h3>Their change</h3>
      <PolicyDiff before={base} after={current} label="by them" />
      <h3>Your change</h3>
      <PolicyDiff before={base} after={mine} label="by you" />
      <div className={styles.actions}>
        <button type="button" className={styles.primary} onClick={onRedo}>
          Redo my change on the stored version
        </button>
        <button type="button" onClick={onDiscard}>
          Discard my change
        </button>
      </div>
    </section>
  );
}
