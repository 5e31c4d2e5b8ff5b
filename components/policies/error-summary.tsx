"use client";
// Above the form after a failed submit: every field in error, each a link that moves focus
// to its input (react-hook-form's setFocus), so a keyboard user reaches each one.
import type { FieldErrors, UseFormSetFocus } from "react-hook-form";
import type { PolicyDocument } from "@/lib/schema/policy";
import { fieldId } from "./field-row";
import { labelOf } from "./fields";
import styles from "./policies.module.css";

/** Flattened `path → message` of react-hook-form's nested errors, in document order. */
function errorList(errors: FieldErrors<PolicyDocument>, prefix = ""): { path: string; message: string }[] {
  const out: { path: string; message: string }[] = [];
  for (const [key, value] of Object.entries(errors)) {
    if (!value || typeof value !== "object") continue;
    const path = prefix ? `${prefix}.${key}` : key;
    const message = (value as { message?: unknown }).message;
    if (typeof message === "string") out.push({ path, message });
    else out.push(...errorList(value as FieldErrors<PolicyDocument>, path));
  }
  return out;
}

export function ErrorSummary({
  errors,
  setFocus,
}: {
  errors: FieldErrors<PolicyDocument>;
  setFocus: UseFormSetFocus<PolicyDocument>;
}) {
  const list = errorList(errors);
  if (list.length === 0) return null;
  return (
    <div className={styles.conflict} role="alert" data-testid="error-summary" aria-labelledby="error-summary-title">
      <h2 id="error-summary-title">
        {list.length === 1 ? "1 field needs a change" : `${list.length} fields need a change`} before you can review
      </h2>
      <ul>
        {list.map((e) => (
          <li key={e.path}>
            <a
              href={`#${fieldId(e.path)}`}
              onClick={(ev) => {
                ev.preventDefault();
                if (e.path === "root") return;
                setFocus(e.path as never);
              }}
            >
              {labelOf(e.path)}
            </a>
            : {e.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
