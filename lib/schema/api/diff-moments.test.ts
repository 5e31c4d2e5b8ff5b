// GET /scheduler/diff `from`/`to` (console-api.md "Additions (third version)"): a revision,
// an ISO 8601 time or Unix ms; a time in `from`/`to` is no longer silently ignored.
import { describe, expect, it } from "vitest";
import { diffQuerySchema } from "./diff";

const paths = (r: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  r.success ? [] : r.error!.issues.map((i) => String(i.path[0]));

describe("diff from/to", () => {
  it("reads digits below 10^12 as a revision, digits from 10^12 as Unix ms and an ISO time with its zone as that instant", () => {
    expect(diffQuerySchema.parse({ from: "999999999999" })).toEqual({ from: 999_999_999_999 });
    expect(diffQuerySchema.parse({ from: "1764626400000", to: "1764630000000" })).toEqual({
      from_ms: 1_764_626_400_000,
      to_ms: 1_764_630_000_000,
    });
    expect(diffQuerySchema.parse({ from: "2025-12-01T22:00Z", to: "2025-12-01T23:30:15.5+01:00" })).toEqual({
      from_ms: Date.UTC(2025, 11, 1, 22),
      to_ms: Date.UTC(2025, 11, 1, 22, 30, 15, 500),
    });
    expect(diffQuerySchema.parse({ from: "12", to: "2025-12-01T22:00:00Z" })).toEqual({
      from: 12,
      to_ms: Date.UTC(2025, 11, 1, 22),
    });
  });

  it("refuses a time without its zone, a date alone, nonsense, revision 0 and a start after the end", () => {
    expect(paths(diffQuerySchema.safeParse({ from: "2025-12-01T22:00" }))).toEqual(["from"]);
    expect(paths(diffQuerySchema.safeParse({ from: "2025-12-01" }))).toEqual(["from"]);
    expect(paths(diffQuerySchema.safeParse({ from: "yesterday" }))).toEqual(["from"]);
    expect(paths(diffQuerySchema.safeParse({ from: "0" }))).toEqual(["from"]);
    expect(paths(diffQuerySchema.safeParse({ from: "2025-12-02T00:00Z", to: "2025-12-01T00:00Z" }))).toEqual([
      "from_ms",
    ]);
    expect(paths(diffQuerySchema.safeParse({ from: "2025-12-02T00:00Z", from_ms: "5" }))).toEqual(["from"]);
  });
});
