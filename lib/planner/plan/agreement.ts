// "Which executor?" has three answers at one revision: the design verdict, the console's
// §6.2 shadow pass (the master's rule) and the master's recorded `state: shadow` row. They
// may differ for known reasons; this says which (console-api.md "One answer on every page").
import { formatCount, formatTime } from "@/lib/schema/format";
import type { Verdict } from "./why-not";

export interface MasterShadowRow {
  executor: string;
  created_ms: number;
  /** the etcd revision the row was written at, when known */
  mod_revision?: number;
}

export interface ExecutorAgreement {
  verdict: string | null;
  console_shadow: string | null;
  master_shadow: MasterShadowRow | null;
  agree: boolean;
  reasons: string[];
}

function writtenAt(row: MasterShadowRow): string {
  const when = formatTime(row.created_ms);
  return row.mod_revision === undefined ? `at ${when}` : `at revision ${formatCount(row.mod_revision)}, ${when}`;
}

/** Why the master's recorded row can name another executor than the console's pass. */
export function masterMismatchReason(master: MasterShadowRow, consoleExecutor: string, revision: number): string {
  return (
    `The master's shadow pass that placed it on ${master.executor} ran at another revision (its row was written ${writtenAt(master)}); ` +
    `its headroom then was different from the headroom at revision ${formatCount(revision)}, where the same §6.2 rule picks ${consoleExecutor}.`
  );
}

export function executorAgreement(
  verdict: Verdict,
  consoleShadow: string | null,
  masterShadow: MasterShadowRow | null,
  revision: number,
): ExecutorAgreement {
  const design = verdict.state === "would_place" ? verdict.executor : null;
  const reasons: string[] = [];
  if (verdict.state === "would_skip" && consoleShadow !== null) {
    reasons.push(
      `The design verdict holds it back (${verdict.code}); the master's §6.2 rule places merges without looking at locks, fences, policies or failures, so its shadow pass still puts it on ${consoleShadow}.`,
    );
  } else if (design !== null && consoleShadow === null) {
    reasons.push(
      verdict.state === "would_place" && verdict.kind !== "merge_wal"
        ? `The verdict places a ${verdict.kind} unit; the master's shadow pass places merges only.`
        : "The master's §6.2 rule runs out of capacity before it: it also places tables the design verdict holds back (locks, fences, policies).",
    );
  } else if (design !== null && consoleShadow !== null && design !== consoleShadow) {
    reasons.push(
      `The design verdict picks ${design} and the §6.2 rule ${consoleShadow}: the design planner skips tables a write turn, fence or policy blocks, places other kinds and applies per-executor limits, so the units ahead of it leave different headroom.`,
    );
  }
  if (masterShadow === null && consoleShadow !== null) {
    reasons.push(
      "The master's last shadow pass recorded no row for it (it ran at another revision, or no leader is running).",
    );
  } else if (masterShadow !== null && consoleShadow === null) {
    reasons.push(
      `The master's shadow pass placed it on ${masterShadow.executor} at another revision (its row was written ${writtenAt(masterShadow)}); at revision ${formatCount(revision)} the same rule does not place it.`,
    );
  } else if (masterShadow !== null && consoleShadow !== null && masterShadow.executor !== consoleShadow) {
    reasons.push(masterMismatchReason(masterShadow, consoleShadow, revision));
  }
  return {
    verdict: design,
    console_shadow: consoleShadow,
    master_shadow: masterShadow,
    agree: reasons.length === 0,
    reasons,
  };
}
