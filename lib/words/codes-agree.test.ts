// Every verdict and why-not code, walked through the planner: the label the pages, the command
// line and the policy review show (codeInWords) must say nothing its message does not. Each
// label word of substance appears in the message (as a word or the start of one: "executor"
// in "executors"), so "every executor draining" cannot sit on "1 draining, 6 without a live
// heartbeat".
import { describe, expect, it } from "vitest";
import { WHY_NOT_CODES, type WhyNotCode } from "@/lib/schema/codes";
import { planFleet } from "@/lib/planner/plan/full-plan";
import type { PlannerFleet } from "@/lib/planner/plan/input";
import type { WhyNot } from "@/lib/planner/plan/why-not";
import {
  NOW,
  GiB,
  assignment,
  demand,
  execution as fixtureExecution,
  fleet,
  heartbeat,
} from "@/lib/planner/plan/__fixtures__/fleet";
import { codeInWords } from "./codes";

const hot = () => demand(16, NOW - 1000);
const critical = () => demand(300, NOW - 1000);
const execution = fixtureExecution();
const ledger = {
  target: "t",
  endpoint: "http://w1",
  consecutive_attempts: 3,
  class: "retryable" as const,
  last_error: "temporary storage failure",
  last_failure_ms: NOW - 5000,
  next_retry_ms: NOW + 25_000,
  needs_attention: false,
};
const runningTask = {
  id: "task-9",
  kind: "merge_wal" as const,
  target: "t",
  state: "running" as const,
  enqueued_at: NOW - 10,
  depends_on: [],
};

/** Fleets that give each code, some more than one way (each of its messages must agree). */
const CASES: Record<WhyNotCode, PlannerFleet[]> = {
  no_demand: [fleet({ tables: { t: demand(0, 0) } })],
  tail_below_threshold: [fleet({ tables: { t: demand(3, NOW - 1000) } })],
  no_executors: [fleet({ tables: { t: hot() }, heartbeats: {} })],
  all_draining: [
    fleet({
      tables: { t: hot() },
      heartbeats: { e1: heartbeat({ draining: true }) },
      assignments: [assignment("x", "gone")],
    }),
    fleet({ tables: { t: hot() }, heartbeats: { e1: heartbeat({ draining: true }) } }),
    fleet({ tables: { t: hot() }, heartbeats: {}, assignments: [assignment("x", "gone"), assignment("y", "gone-2")] }),
  ],
  no_free_slot: [
    fleet({
      tables: { t: hot() },
      heartbeats: { e1: heartbeat({ slots_total: { merge_wal: 1 } }), e2: heartbeat({ draining: true }) },
      assignments: [assignment("x", "e1")],
    }),
  ],
  insufficient_bytes: [
    fleet({ tables: { t: hot() }, heartbeats: { e1: heartbeat({ bytes_total: GiB }) } }),
    fleet({
      tables: { t: hot() },
      heartbeats: { e1: heartbeat({ bytes_total: GiB }), e2: heartbeat({ bytes_total: GiB }) },
    }),
  ],
  rate_limited: [
    fleet({
      tables: { t: hot() },
      assignments: Array.from({ length: 6 }, (_, i) =>
        assignment(`x${i}`, "e1", { state: "released", created_ms: NOW - 59_000, unit_id: `r${i}` }),
      ),
    }),
  ],
  executor_not_allowed: [fleet({ tables: { t: hot() }, policies: { t: { executors_allowed: ["worker"] } } })],
  cooldown: [
    fleet(
      { tables: { t: demand(0, 0, { fragment_count: 64 }) } },
      { cooldowns: [{ kind: "compact", target: "t", failures: 4, until_ms: NOW + 1_200_000, last_error: "boom" }] },
    ),
  ],
  failure_backoff: [fleet({ tables: { t: hot() } }, { failures: [ledger] })],
  needs_attention: [
    fleet(
      { tables: { t: hot() } },
      {
        failures: [
          {
            ...ledger,
            class: "data_or_configuration",
            last_error: "Not found: /data/1.lance",
            needs_attention: true,
            next_retry_ms: NOW + 3_595_000,
          },
        ],
      },
    ),
  ],
  ownership_blocked: [
    fleet({ tables: { t: hot() }, fences: { t: { mergeClaim: "reconciler-1" } } }),
    fleet({ tables: { t: hot() }, fences: { t: { targetLock: "claim-token-9" } } }),
    fleet({ tables: { t: hot() }, fences: { t: { catchupOwner: { job: "job-1", shared: false } } } }),
  ],
  yield_to_prepared_commit: [
    fleet({
      tables: { t: critical() },
      fences: { t: { preparation: "tok", commitReady: "tok" } },
      heartbeats: { e1: heartbeat({ slots_total: { merge_wal: 4 } }) },
    }),
  ],
  turn_limit: [
    fleet(
      { tables: { t: demand(300, NOW - 1000, { fragment_count: 32 }) } },
      {
        turns: new Map([
          [
            "t",
            {
              turns: [
                { kind: "merge_wal", at_ms: 1 },
                { kind: "merge_wal", at_ms: 2 },
              ],
            },
          ],
        ]),
      },
    ),
  ],
  policy_frozen: [fleet({ tables: { t: hot() }, policies: { t: { mode: "frozen" } } })],
  policy_draining: [fleet({ tables: { t: hot() }, defaultPolicy: { mode: "drain" } })],
  kind_not_allowed: [fleet({ tables: { t: hot() }, policies: { t: { kinds_allowed: ["Compact", "IndexId"] } } })],
  already_running: [
    fleet({ tables: { t: hot() } }, { tasks: { queued: [], running: [runningTask] } }),
    fleet({ tables: { t: hot() }, fences: { t: { activeTaskClaimed: true } } }),
    fleet({ tables: { t: hot() }, assignments: [assignment("t", "e1")] }),
    fleet({ tables: { t: hot() }, assignments: [assignment("t", "gone", { state: "assigned" })] }),
  ],
  cycle_limit: [
    fleet({
      tables: Object.fromEntries(
        Array.from({ length: 9 }, (_, i) => [i === 0 ? "t" : `t${i}`, demand(16 + i, NOW - 1000)]),
      ),
      heartbeats: { e1: heartbeat(), e2: heartbeat(), e3: heartbeat() },
    }),
  ],
  write_turn_held: [
    fleet({
      tables: { t: hot() },
      fences: {
        t: {
          execution,
          targetLock: "merge-execution:exec-1",
          progress: {
            sequence: 12,
            last_progress_revision: 7,
            last_progress_ms: NOW - 12_000,
            last_progress_bound: "exact",
          },
        },
      },
    }),
    fleet({ tables: { t: hot() }, fences: { t: { execution, targetLock: "merge-execution:exec-1" } } }),
  ],
  write_turn_stalled: [
    fleet({
      tables: { t: hot() },
      fences: {
        t: {
          execution,
          targetLock: "merge-execution:exec-1",
          progress: {
            sequence: 12,
            last_progress_revision: 7,
            last_progress_ms: NOW - 3_600_000,
            last_progress_bound: "exact",
          },
        },
      },
    }),
  ],
};

/** Every why-not entry the plan gives table `t`, its units' and the passed-over ones included. */
function entriesOf(f: PlannerFleet): WhyNot[] {
  const t = planFleet(f, NOW).byTarget.get("t");
  if (!t) throw new Error("no plan for t");
  return [...t.why_not, ...t.passed_over];
}

/** Words of no substance: a label's claim is in its other words. */
const STOP = new Set([
  "a",
  "an",
  "the",
  "to",
  "of",
  "in",
  "on",
  "by",
  "is",
  "no",
  "not",
  "or",
  "and",
  "for",
  "with",
  "at",
  "its",
]);
const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** The label's words of substance that the message does not say (empty: they agree). */
export function unsaid(label: string, message: string): string[] {
  const said = wordsOf(message);
  return wordsOf(label).filter((w) => !STOP.has(w) && !said.some((m) => m.startsWith(w)));
}

describe("every code's label says what its message says", () => {
  it("the check itself: the old all_draining label on a message about heartbeats fails", () => {
    expect(unsaid("every executor draining", "0/7 executors fit: 1 draining, 6 without a live heartbeat.")).toEqual([
      "every",
    ]);
    expect(unsaid("owned elsewhere", "ownership blocked: another claim holds the write-turn lock")).toEqual([
      "owned",
      "elsewhere",
    ]);
  });

  for (const code of WHY_NOT_CODES) {
    it(`${code}: "${codeInWords(code)}"`, () => {
      const cases = CASES[code];
      expect(cases.length, `a fleet that gives ${code}`).toBeGreaterThan(0);
      for (const f of cases) {
        const entry = entriesOf(f).find((w) => w.code === code);
        expect(entry, `the case gives ${code}`).toBeDefined();
        expect(unsaid(codeInWords(code), entry!.message), entry!.message).toEqual([]);
      }
    });
  }
});
