"use client";
// The takeover gate before review (console-api.md "The takeover gate and the canary
// evidence"): what a switch of this table (or `_default`, the fleet) to mode planner must
// pass now, in words. A save that sets planner while a gate fails answers 409
// takeover_not_ready and writes nothing; the canary report's digest travels with the save
// when the page was opened from it (`?evidence=`).
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { QueryState } from "@/components/ui/query-state";
import { evidenceDigestOf } from "@/lib/client/resources/evidence";
import { useGates } from "@/lib/client/takeover-hooks";
import { GATE_LABEL } from "./gate-labels";

export function TakeoverGates({ target }: { target: string }) {
  const digest = evidenceDigestOf(useSearchParams());
  const gates = useGates(target, digest);
  return (
    <section className="panel" aria-label="takeover gate" data-testid="takeover-gates" style={{ margin: "12px 0" }}>
      <h2>Before switching to mode planner</h2>
      <QueryState query={gates} what="takeover gates" quiet>
        {(g) => (
          <>
            <ul style={{ margin: "4px 0", paddingLeft: 18 }}>
              {g.gates.map((x) => (
                <li key={x.gate} data-testid={`gate-${x.gate}`} data-ok={x.ok}>
                  <strong>
                    {x.ok ? "✓" : "✗"} {GATE_LABEL[x.gate]}
                  </strong>{" "}
                  — {x.detail}
                </li>
              ))}
            </ul>
            <p className="muted" style={{ margin: 0 }} data-testid="gates-summary">
              {g.ready
                ? "Every gate passes: a save that sets mode planner goes through."
                : "A save that sets mode planner is refused (takeover_not_ready) while a gate fails; other edits are not affected."}{" "}
              {!digest && <Link href="/canary">Read the canary report</Link>}
            </p>
          </>
        )}
      </QueryState>
    </section>
  );
}
