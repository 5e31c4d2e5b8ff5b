// The effective policy without edit controls (viewers, read-only mode): every field's
// effective value and where it comes from.
import { getPath, POLICY_FIELDS, showValue } from "./fields";
import type { PolicyResponse } from "@/lib/schema/api/policies";
import { SourceBadge } from "./field-row";
import styles from "./policies.module.css";

export function PolicyReadView({ data }: { data: PolicyResponse }) {
  return (
    <table className={styles.fields} data-testid="policy-read-view">
      <thead>
        <tr>
          <th>field</th>
          <th>stored here</th>
          <th>effective</th>
        </tr>
      </thead>
      <tbody>
        {POLICY_FIELDS.map((field) => (
          <tr key={field.path} data-testid={`field-${field.path}`}>
            <td>
              {field.label} <span className="muted mono">{field.path}</span>
            </td>
            <td className="mono">{showValue(getPath(data.stored, field.path))}</td>
            <td className="mono" data-testid={`effective-${field.path}`}>
              {getPath(data.effective, field.path) === undefined
                ? "no limit"
                : showValue(getPath(data.effective, field.path))}{" "}
              <SourceBadge source={data.sources.fields[field.path] ?? "builtin"} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
