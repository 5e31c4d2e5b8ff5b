// The time endpoints' queries (console-api.md "Time"): garbled input is a 400 with the
// parameter named (the handler wrapper turns these zod issues into `invalid_query`).
import { describe, expect, it, vi } from "vitest";
import { changeQuerySchema, revisionTimeQuerySchema } from "./revisions";
import { historyQuerySchema } from "./history";
import { diffQuerySchema } from "./diff";

const issuePaths = (r: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  r.success ? [] : r.error!.issues.map((i) => i.path.join("."));

describe("time queries", () => {
  it("revisions/time takes exactly one of revision and at_ms, as digits", () => {
    expect(revisionTimeQuerySchema.parse({ revision: "21000" })).toEqual({ revision: 21000 });
    expect(revisionTimeQuerySchema.parse({ at_ms: "1764558612000" })).toEqual({ at_ms: 1764558612000 });
    expect(issuePaths(revisionTimeQuerySchema.safeParse({}))).toEqual(["revision"]);
    expect(issuePaths(revisionTimeQuerySchema.safeParse({ revision: "1", at_ms: "2" }))).toEqual(["revision"]);
    expect(issuePaths(revisionTimeQuerySchema.safeParse({ at_ms: "03:10" }))).toEqual(["at_ms"]);
    expect(new Set(issuePaths(revisionTimeQuerySchema.safeParse({ revision: "99999999999999999999" })))).toEqual(
      new Set(["revision"]),
    );
    expect(issuePaths(revisionTimeQuerySchema.safeParse({ revision: "-4" }))).toEqual(["revision"]);
  });

  it("history needs a target and a forward window of at most 7 days", () => {
    expect(historyQuerySchema.parse({ target: "t" })).toEqual({ target: "t" });
    expect(issuePaths(historyQuerySchema.safeParse({}))).toEqual(["target"]);
    expect(issuePaths(historyQuerySchema.safeParse({ target: "t", from_ms: "20", to_ms: "10" }))).toEqual(["from_ms"]);
    expect(
      issuePaths(historyQuerySchema.safeParse({ target: "t", from_ms: "0", to_ms: String(8 * 86_400_000) })),
    ).toEqual(["from_ms"]);
    expect(issuePaths(historyQuerySchema.safeParse({ target: "t", to_ms: "soon" }))).toEqual(["to_ms"]);
  });

  it("a time up to 5 minutes ahead reads as now; further ahead is a 400 on that parameter", () => {
    vi.useFakeTimers({ now: 1_764_558_612_000, toFake: ["Date"] });
    try {
      const now = Date.now();
      expect(historyQuerySchema.parse({ target: "t", to_ms: String(now + 60_000) })).toEqual({
        target: "t",
        to_ms: now,
      });
      expect(historyQuerySchema.parse({ target: "t", to_ms: String(now + 5 * 60_000) })).toEqual({
        target: "t",
        to_ms: now,
      });
      expect(issuePaths(historyQuerySchema.safeParse({ target: "t", to_ms: String(now + 5 * 60_000 + 1) }))).toEqual([
        "to_ms",
      ]);
      expect(revisionTimeQuerySchema.parse({ at_ms: String(now + 240_000) })).toEqual({ at_ms: now });
      expect(revisionTimeQuerySchema.parse({ at_ms: String(now - 1) })).toEqual({ at_ms: now - 1 });
      expect(issuePaths(revisionTimeQuerySchema.safeParse({ at_ms: String(now + 3_600_000) }))).toEqual(["at_ms"]);
      expect(diffQuerySchema.parse({ from: "5", to_ms: String(now + 90_000) })).toEqual({ from: 5, to_ms: now });
    } finally {
      vi.useRealTimers();
    }
  });

  it("diff needs a start, and not after its end", () => {
    expect(diffQuerySchema.parse({ from: "5" })).toEqual({ from: 5 });
    expect(issuePaths(diffQuerySchema.safeParse({}))).toEqual(["from"]);
    expect(issuePaths(diffQuerySchema.safeParse({ from: "9", to: "5" }))).toEqual(["from"]);
    expect(issuePaths(diffQuerySchema.safeParse({ from: "5", to: "6", to_ms: "7" }))).toEqual(["to"]);
  });

  it("change needs a scope, a revision, a direction, and a target for one table", () => {
    expect(changeQuerySchema.parse({ scope: "tables", revision: "7", direction: "back" })).toEqual({
      scope: "tables",
      revision: 7,
      direction: "back",
    });
    expect(issuePaths(changeQuerySchema.safeParse({ scope: "table", revision: "7", direction: "back" }))).toEqual([
      "target",
    ]);
    expect(issuePaths(changeQuerySchema.safeParse({ scope: "moon", revision: "7", direction: "sideways" }))).toEqual([
      "scope",
      "direction",
    ]);
  });
});
