"use client";
// A save to mode planner refused by the takeover gate (409 takeover_not_ready, console-api.md
// "The takeover gate and the canary evidence"): the gates in words, and for an admin the
// override — tick the failing gates to override, give a second reason (why these gates,
// kept in the audit beside the change's own reason), and save again with them.
import { useId, useState } from "react";
import type { TakeoverGate, TakeoverGateName } from "@/lib/schema/api/takeover";
import { GATE_LABEL } from "./gate-labels";

export interface GateOverride {
  gates: TakeoverGateName[];
  reason: string;
}

const MAX_REASON = 500;

export function GateRefusal({
  message,
  gates,
  busy,
  onOverride,
}: {
  message: string;
  gates: TakeoverGate[];
  busy: boolean;
  onOverride: (o: GateOverride) => void;
}) {
  const failing = gates.filter((g) => !g.ok);
  const [ticked, setTicked] = useState<ReadonlySet<TakeoverGateName>>(new Set());
  const [reason, setReason] = useState("");
  const reasonId = useId();
  const all = failing.every((g) => ticked.has(g.gate));
  const problem =
    ticked.size === 0
      ? "Tick the gates to override."
      : !all
        ? "Every failing gate must be overridden (or met) for the save to go through."
        : reason.trim() === ""
          ? "Say why these gates are overridden."
          : reason.trim().length > MAX_REASON
            ? `The reason is at most ${MAX_REASON} characters.`
            : null;
  return (
    <section className="state state-error" role="alert" data-testid="takeover-refused" tabIndex={-1} data-takes-focus>
      <p style={{ marginTop: 0 }}>Not saved: takeover_not_ready: {message}</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (problem === null) onOverride({ gates: [...ticked], reason: reason.trim() });
        }}
        data-testid="gate-override"
      >
        <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
          <legend>Override the failing gates (recorded in the audit log)</legend>
          {failing.map((g) => (
            <label key={g.gate} style={{ display: "block" }}>
              <input
                type="checkbox"
                checked={ticked.has(g.gate)}
                onChange={(e) => {
                  const next = new Set(ticked);
                  if (e.target.checked) next.add(g.gate);
                  else next.delete(g.gate);
                  setTicked(next);
                }}
              />{" "}
              Override “{GATE_LABEL[g.gate]}” — {g.detail}
            </label>
          ))}
        </fieldset>
        <label htmlFor={reasonId} style={{ display: "block", marginTop: 8 }}>
          Why override these gates? (a second reason, besides the change&apos;s own)
        </label>
        <textarea
          id={reasonId}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          rows={2}
          maxLength={MAX_REASON}
          style={{ width: "100%" }}
        />
        <p className="muted" style={{ margin: "4px 0" }} aria-live="polite" data-testid="override-problem">
          {problem ?? `The save goes through with ${failing.length === 1 ? "this gate" : "these gates"} overridden.`}
        </p>
        <button type="submit" disabled={busy || problem !== null}>
          Save with the gates overridden
        </button>
      </form>
    </section>
  );
}
