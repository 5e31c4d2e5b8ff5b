// The memory budget's shares and a view's estimated bytes (./memory-budget.ts).
import { describe, expect, it } from "vitest";
import { emptySnapshot } from "@/lib/snapshot/build";
import type { DemandEventEntry } from "@/lib/snapshot/types";
import { HEAP_PER_ENCODED_BYTE, memoryShares, viewBytes } from "./memory-budget";

const stats = (bytes: number) => ({ pages: 1, shrinks: 0, bytes, keys: 1, durationMs: 1 });

describe("memoryShares (CONSOLE_MEMORY_MIB)", () => {
  it("gives the pinned views an eighth of the budget, the views the plans hold an eighth and the change log a 64th", () => {
    const mib = 1_048_576;
    expect(memoryShares(1024 * mib)).toEqual({ pinnedViews: 128 * mib, heldViews: 128 * mib, changeLog: 16 * mib });
    expect(memoryShares(64 * mib)).toEqual({ pinnedViews: 8 * mib, heldViews: 8 * mib, changeLog: mib });
  });
});

describe("viewBytes", () => {
  it("a view read in full: its records' encoded bytes as read × the measured heap factor", () => {
    const snapshot = emptySnapshot("/p", 7, { stats: stats(22_010_544) });
    expect(viewBytes(snapshot)).toBe(Math.round(22_010_544 * HEAP_PER_ENCODED_BYTE));
  });

  it("a view put back from the live one: its own slots and the values it put back, never below the floor", () => {
    const small = emptySnapshot("/p", 7);
    const floor = viewBytes(small);
    expect(floor).toBeGreaterThan(0);
    const big = emptySnapshot("/p", 7);
    big.demandEvents = Array.from({ length: 100_000 }, () => ({}) as DemandEventEntry);
    const withEntries = viewBytes(big);
    expect(withEntries).toBeGreaterThan(floor);
    expect(viewBytes(big, 1_000_000)).toBe(withEntries + 1_000_000 * HEAP_PER_ENCODED_BYTE);
  });
});
