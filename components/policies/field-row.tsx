"use client";
// One editable leaf: its input (empty = inherit), the effective value and where it comes
// from (built-in / default / table), its inline error and a reset-to-inherited button.
import { useController, type Control } from "react-hook-form";
import type { PolicyDocument } from "@/lib/schema/policy";
import type { FieldSource } from "./sources";
import { showValue, type PolicyField } from "./fields";
import { ModeGuide } from "./mode-guide";
import styles from "./policies.module.css";

export interface FieldRowProps {
  control: Control<PolicyDocument>;
  field: PolicyField;
  effective: unknown;
  source: FieldSource;
  inherited: unknown;
  inheritedSource: FieldSource;
  /** the typed value fails validation: the effective value is the inherited one, and the row says so */
  typedUnused?: boolean;
}

const SOURCE_LABEL: Record<FieldSource, string> = { builtin: "built-in", default: "default", table: "table" };

export function SourceBadge({ source }: { source: FieldSource }) {
  return (
    <span
      className={`${styles.source} ${source === "table" ? styles["source-table"] : source === "default" ? styles["source-default"] : ""}`}
    >
      {SOURCE_LABEL[source]}
    </span>
  );
}

/**
 * Integer text → number; "" → null (inherit); anything else, and digits past the safe
 * integers (which a number would round, 99999999999999999999 → 1e20), stays the text
 * typed, so the input keeps it and validation names it as typed.
 */
function parseInt(text: string): number | string | null {
  const t = text.trim();
  if (t === "") return null;
  return /^-?\d+$/.test(t) && Number.isSafeInteger(Number(t)) ? Number(t) : text;
}

/** An effective value; a per-kind limit no layer sets is simply absent: no limit. */
const effectiveText = (v: unknown) => (v === undefined ? "no limit" : showValue(v));

export function FieldRow({
  control,
  field,
  effective,
  source,
  inherited,
  inheritedSource,
  typedUnused = false,
}: FieldRowProps) {
  const { field: input, fieldState } = useController({ control, name: field.path as never });
  // react-hook-form's field, taken apart once: its callback ref is passed on, never read
  const { onChange, onBlur, ref: inputRef } = input;
  const value = input.value as unknown;
  const id = fieldId(field.path);
  const errorId = `${id}-error`;
  const set = value !== null && value !== undefined;
  const invalid = { "aria-invalid": fieldState.invalid, "aria-describedby": fieldState.error ? errorId : undefined };
  return (
    <tr data-testid={`field-${field.path}`} data-source={source}>
      <td>
        <label htmlFor={id}>{field.label}</label>
        <div className="muted">
          {field.help} · <span className="mono">{field.path}</span>
        </div>
      </td>
      <td className={styles["field-input"]}>
        {field.kind === "int" && (
          <input
            id={id}
            type="text"
            inputMode="numeric"
            placeholder={`inherit (${effectiveText(inherited)})`}
            value={set ? String(value) : ""}
            onChange={(e) => onChange(parseInt(e.target.value))}
            onBlur={onBlur}
            ref={inputRef}
            {...invalid}
          />
        )}
        {field.kind === "enum" && (
          <select
            id={id}
            value={set ? String(value) : ""}
            onChange={(e) => onChange(e.target.value === "" ? null : e.target.value)}
            onBlur={onBlur}
            ref={inputRef}
            {...invalid}
          >
            <option value="">inherit ({showValue(inherited)})</option>
            {field.options?.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        )}
        {field.path === "mode" && <ModeGuide current={set ? String(value) : null} />}
        {field.kind === "bool" && (
          <select
            id={id}
            value={set ? String(value) : ""}
            onChange={(e) => onChange(e.target.value === "" ? null : e.target.value === "true")}
            onBlur={onBlur}
            ref={inputRef}
            {...invalid}
          >
            <option value="">inherit ({showValue(inherited)})</option>
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
        )}
        {field.kind === "list" && (
          <ListInput
            id={id}
            label={field.label}
            value={value}
            inherited={inherited}
            options={field.options ?? []}
            onChange={onChange}
            inputRef={inputRef}
          />
        )}
        {fieldState.error?.message && (
          <div className={styles.error} id={errorId} data-testid={`error-${field.path}`}>
            {fieldState.error.message}
          </div>
        )}
      </td>
      <td className="mono" data-testid={`effective-${field.path}`}>
        {effectiveText(effective)} <SourceBadge source={source} />
        {typedUnused && (
          <div className="muted" data-testid={`unused-${field.path}`}>
            the typed value is not valid, so it is not used
          </div>
        )}
      </td>
      <td>
        {set && (
          <button
            type="button"
            onClick={() => onChange(null)}
            title={`inherit ${effectiveText(inherited)} from ${SOURCE_LABEL[inheritedSource]}`}
          >
            reset to inherited
          </button>
        )}
      </td>
    </tr>
  );
}

/** The element id of a field's input (the error summary links to it). */
export const fieldId = (path: string) => `policy-${path.replace(/\./g, "-")}`;

function ListInput({
  id,
  label,
  value,
  inherited,
  options,
  onChange,
  inputRef,
}: {
  id: string;
  label: string;
  value: unknown;
  inherited: unknown;
  options: readonly string[];
  onChange: (v: unknown) => void;
  inputRef: (el: HTMLInputElement | null) => void;
}) {
  const list = Array.isArray(value) ? (value as string[]) : null;
  const shown = list ?? (Array.isArray(inherited) ? (inherited as string[]) : []);
  return (
    <div className={styles.lists} role="group" aria-label={label}>
      <label>
        <input
          id={id}
          ref={inputRef}
          type="checkbox"
          checked={list === null}
          onChange={(e) => onChange(e.target.checked ? null : [...shown])}
        />{" "}
        inherit
      </label>
      {options.map((o) => (
        <label key={o}>
          <input
            type="checkbox"
            disabled={list === null}
            checked={shown.includes(o)}
            onChange={(e) =>
              onChange(
                e.target.checked ? options.filter((x) => x === o || shown.includes(x)) : shown.filter((x) => x !== o),
              )
            }
          />{" "}
          {o}
        </label>
      ))}
    </div>
  );
}
