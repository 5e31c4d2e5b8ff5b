// UUIDv7 task ids (scheduler-model.md §2.8): the first 48 bits are the Unix ms, so ids sort
// by time and the `tasks/` range of a window starts at its first millisecond's prefix.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { incidentKvs } from "@/lib/sim/scenarios/incidents";
import { realisticKvs } from "@/lib/sim/scenarios/realistic";
import { uuidv7, uuidv7Ms, uuidv7Prefix } from "./task-id";

const ms = fc.integer({ min: 0, max: 2 ** 48 - 1 });

describe("UUIDv7 task ids", () => {
  it("encode their millisecond in the first 48 bits", () => {
    expect(uuidv7Prefix(0x0192_b3c4_d5e6)).toBe("0192b3c4-d5e6");
    expect(uuidv7(0x0192_b3c4_d5e6, 0xabcdef12)).toBe("0192b3c4-d5e6-7abc-8def-000012000000");
    fc.assert(fc.property(ms, fc.nat(), (t, n) => uuidv7Ms(uuidv7(t, n)) === t));
  });

  it("sort like their times, and a window's prefix bounds them", () => {
    fc.assert(
      fc.property(ms, ms, fc.nat(), fc.nat(), (a, b, n, m) => {
        const [x, y] = [uuidv7(a, n), uuidv7(b, m)];
        if (a < b) expect(x < y).toBe(true);
        // the range [prefix(since), …) holds exactly the ids of since or later
        expect(x >= uuidv7Prefix(b)).toBe(a >= b);
      }),
    );
  });

  it("rejects what is not a UUIDv7", () => {
    expect(uuidv7Ms("0192b000-task-0000")).toBeNull();
    expect(uuidv7Ms("0192b3c4-d5e6-4abc-8def-000012000000")).toBeNull(); // v4
    expect(uuidv7Ms("0192B3C4-D5E6-7ABC-8DEF-000012000000")).toBeNull(); // the master writes lowercase
  });

  it("the simulator's task ids are UUIDv7 of their enqueue time", () => {
    const now = 1_780_000_000_000;
    const tasks = [...realisticKvs("P", now), ...incidentKvs("P", now)].filter((kv) => kv.key.startsWith("P/tasks/"));
    expect(tasks).toHaveLength(8);
    for (const kv of tasks) {
      const id = kv.key.slice("P/tasks/".length);
      expect(uuidv7Ms(id)).toBe((JSON.parse(kv.value) as { enqueued_at: number }).enqueued_at);
    }
  });
});
