// The time endpoints' queries (console-api.md "Time"): garbled input is a 400 with the
// parameter named (the handler wrapper turns these zod issues into `invalid_query`).
import { describe, expect, it } from "vitest";
import { changeQuery, revisionTimeQuery } from "./revisions";
import { historyQuery } from "./history";
import { diffQuery } from "./diff";

const issuePaths = (r: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) => (r.success ? [] : r.error!.issues.map((i) => i.path.join(".")));

describe("time queries", () => {
  it("revisions/time takes exactly one of revision and at_ms, as digits", () => {
    expect(revisionTimeQuery.parse({ revision: "21000" })).toEqual({ revision: 21000 });
    expect(revisionTimeQuery.parse({ at_ms: "1764558612000" })).toEqual({ at_ms: 1764558612000 });
    expect(issuePaths(revisionTimeQuery.safeParse({}))).toEqual(["revision"]);
    expect(issuePaths(revisionTimeQuery.safeParse({ revision: "1", at_ms: "2" }))).toEqual(["revision"]);
    expect(issuePaths(revisionTimeQuery.safeParse({ at_ms: "03:10" }))).toEqual(["at_ms"]);
    expect(new Set(issuePaths(revisionTimeQuery.safeParse({ revision: "99999999999999999999" })))).toEqual(new Set(["revision"]));
    expect(issuePaths(revisionTimeQuery.safeParse({ revision: "-4" }))).toEqual(["revision"]);
  });

  it("history needs a target and a forward window of at most 7 days", () => {
    expect(historyQuery.parse({ target: "t" })).toEqual({ target: "t" });
    expect(issuePaths(historyQuery.safeParse({}))).toEqual(["target"]);
    expect(issuePaths(historyQuery.safeParse({ target: "t", from_ms: "20", to_ms: "10" }))).toEqual(["from_ms"]);
    expect(issuePaths(historyQuery.safeParse({ target: "t", from_ms: "0", to_ms: String(8 * 86_400_000) }))).toEqual(["from_ms"]);
    expect(issuePaths(historyQuery.safeParse({ target: "t", to_ms: "soon" }))).toEqual(["to_ms"]);
  });

  it("diff needs a start, and not after its end", () => {
    expect(diffQuery.parse({ from: "5" })).toEqual({ from: 5 });
    expect(issuePaths(diffQuery.safeParse({}))).toEqual(["from"]);
    expect(issuePaths(diffQuery.safeParse({ from: "9", to: "5" }))).toEqual(["from"]);
    expect(issuePaths(diffQuery.safeParse({ from: "5", to: "6", to_ms: "7" }))).toEqual(["to"]);
  });

  it("change needs a scope, a revision, a direction, and a target for one table", () => {
    expect(changeQuery.parse({ scope: "tables", revision: "7", direction: "back" })).toEqual({ scope: "tables", revision: 7, direction: "back" });
    expect(issuePaths(changeQuery.safeParse({ scope: "table", revision: "7", direction: "back" }))).toEqual(["target"]);
    expect(issuePaths(changeQuery.safeParse({ scope: "moon", revision: "7", direction: "sideways" }))).toEqual(["scope", "direction"]);
  });
});
