// Leaf-by-leaf diff of two policy documents (absent = inherit). Used before saving, in the
// conflict view and on the audit page.
import { diffDocs, showValue } from "./fields";
import styles from "./policies.module.css";

export function PolicyDiff({ before, after, label }: { before: unknown; after: unknown; label?: string }) {
  const changes = diffDocs(before, after);
  if (changes.length === 0)
    return (
      <p className="muted" data-testid="diff-empty">
        No changes{label ? ` ${label}` : ""}.
      </p>
    );
  return (
    <table className={styles.diff} data-testid="policy-diff" aria-label={label ?? "changes"}>
      <thead>
        <tr>
          <th>field</th>
          <th>before</th>
          <th>after</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((c) => (
          <tr key={c.path} data-path={c.path}>
            <td>{c.path}</td>
            <td className={styles.before}>{showValue(c.before)}</td>
            <td className={styles.after}>{showValue(c.after)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
