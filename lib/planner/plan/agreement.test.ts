// "Which executor?": the verdict, the §6.2 shadow placement and the master's row, and the
// reason for every way they can differ.
import { describe, expect, it } from "vitest";
import { executorAgreement, masterMismatchReason } from "./agreement";
import type { Verdict } from "./why-not";

const place = (executor: string, kind = "merge_wal"): Verdict => ({
  state: "would_place",
  executor,
  reserved_bytes: 1,
  kind,
});
const skip: Verdict = { state: "would_skip", code: "write_turn_held", message: "m" };
const row = { executor: "m1", created_ms: Date.UTC(2026, 11, 1, 9, 0, 0), mod_revision: 40 };

describe("executorAgreement", () => {
  it("agrees only when all three name the same executor (or none places it)", () => {
    expect(executorAgreement(place("m1"), "m1", row, 50)).toEqual({
      verdict: "m1",
      console_shadow: "m1",
      master_shadow: row,
      agree: true,
      reasons: [],
    });
    expect(executorAgreement(skip, null, null, 50)).toMatchObject({ agree: true, reasons: [] });
  });

  it("says why each pair differs", () => {
    const cases: Array<[Verdict, string | null, typeof row | null, string[]]> = [
      [
        skip,
        "m1",
        row,
        [
          "The design verdict holds it back (write_turn_held); the master's §6.2 rule places merges without looking at locks, fences, policies or failures, so its shadow pass still puts it on m1.",
        ],
      ],
      [
        place("m1", "compact"),
        null,
        null,
        ["The verdict places a compact unit; the master's shadow pass places merges only."],
      ],
      [
        place("m1"),
        null,
        null,
        [
          "The master's §6.2 rule runs out of capacity before it: it also places tables the design verdict holds back (locks, fences, policies).",
        ],
      ],
      [
        place("m2"),
        "m1",
        row,
        [
          "The design verdict picks m2 and the §6.2 rule m1: the design planner skips tables a write turn, fence or policy blocks, places other kinds and applies per-executor limits, so the units ahead of it leave different headroom.",
        ],
      ],
      [
        place("m1"),
        "m1",
        null,
        ["The master's last shadow pass recorded no row for it (it ran at another revision, or no leader is running)."],
      ],
      [
        skip,
        null,
        row,
        [
          "The master's shadow pass placed it on m1 at another revision (its row was written at revision 40, 2026-12-01 09:00:00Z); at revision 50 the same rule does not place it.",
        ],
      ],
      [place("m2"), "m2", row, [masterMismatchReason(row, "m2", 50)]],
    ];
    for (const [verdict, consoleShadow, master, reasons] of cases) {
      expect(executorAgreement(verdict, consoleShadow, master, 50)).toMatchObject({ agree: false, reasons });
    }
    expect(masterMismatchReason(row, "m2", 50)).toBe(
      "The master's shadow pass that placed it on m1 ran at another revision (its row was written at revision 40, 2026-12-01 09:00:00Z); its headroom then was different from the headroom at revision 50, where the same §6.2 rule picks m2.",
    );
    expect(masterMismatchReason({ executor: "m1", created_ms: 0 }, "m2", 50)).toContain(
      "(its row was written at 1970-01-01 00:00:00Z)",
    );
  });
});
