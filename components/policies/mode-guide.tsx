// What each scheduling mode does (scheduler-model.md §7.3), said where a mode is chosen:
// under a P1 master (which reads no policy at all) and under a policy-aware (P2) master.
// The console's model and preview plan every mode the way a policy-aware master would.
import type { PolicyMode } from "@/lib/schema/policy";
import styles from "./policies.module.css";

interface ModeWords {
  mode: PolicyMode;
  /** one line: what the mode is for */
  gist: string;
  p1: string;
  p2: string;
}

const P1_IGNORES = "Nothing changes: a P1 master reads no policy; its task queue schedules the table as before.";

const MODE_GUIDE: readonly ModeWords[] = [
  {
    mode: "legacy",
    gist: "the master's task queue schedules the table (the default)",
    p1: "The table runs on the task queue, as it always has.",
    p2: "The master keeps the table on its task queue; the planner only shadows it (shadow comparisons, no placements of its own).",
  },
  {
    mode: "planner",
    gist: "the planner places the table's work (takeover)",
    p1: P1_IGNORES,
    p2: "The planner places the table's work on executors; the task queue stops scheduling it. Every master must be policy-aware first.",
  },
  {
    mode: "active",
    gist: "scheduled normally, with every other field of the policy applied",
    p1: P1_IGNORES,
    p2: "The table is scheduled with the thresholds, allow-lists and turn limits of this policy.",
  },
  {
    mode: "drain",
    gist: "running work may finish; nothing new is placed",
    p1: P1_IGNORES,
    p2: "Running merges finish; no new work is placed for the table until the mode changes.",
  },
  {
    mode: "frozen",
    gist: "nothing new is placed, even when due or critical",
    p1: P1_IGNORES,
    p2: "No new work is placed for the table at all; its pending generations grow up to the write cliff until an admin changes the mode.",
  },
];

/** The explanation beside the mode field: every mode, under P1 and under P2. */
export function ModeGuide({ current }: { current: string | null }) {
  return (
    <details className={styles.modes} data-testid="mode-guide">
      <summary>What each mode does under a P1 and a policy-aware (P2) master</summary>
      <ul>
        {MODE_GUIDE.map((m) => (
          <li key={m.mode} data-mode={m.mode} aria-current={m.mode === current ? "true" : undefined}>
            <strong className="mono">{m.mode}</strong>: {m.gist}.
            <br />
            <span className="muted">P1 master:</span> {m.p1}
            <br />
            <span className="muted">Policy-aware (P2) master:</span> {m.p2}
          </li>
        ))}
      </ul>
    </details>
  );
}
