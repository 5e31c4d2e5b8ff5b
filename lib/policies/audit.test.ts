import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { auditEntryOf } from "./audit";

const record = (v: unknown) => Buffer.from(JSON.stringify(v));

describe("auditEntryOf: the stored audit record through its schema", () => {
  it("lists a whole record in the API's field order, id and mod_revision from the key", () => {
    const entry = auditEntryOf(
      "001764000000000-a1b2c3d4e5f6",
      record({
        at_ms: 1_764_000_000_000,
        actor: "ops",
        target: "alpha",
        before: null,
        after: { v: 1, mode: "frozen" },
        reason: "incident 42",
        previous_mod_revision: 0,
        overridden_gates: ["canary", 7, "shadow"],
        override_reason: "approved",
        rule: { source: "rbac_file", index: 2, subject: "group team-orders", glob: "alpha*" },
      }),
      17,
    );
    expect(JSON.stringify(entry)).toBe(
      '{"id":"001764000000000-a1b2c3d4e5f6","at_ms":1764000000000,"actor":"ops","target":"alpha",' +
        '"before":null,"after":{"v":1,"mode":"frozen"},"reason":"incident 42",' +
        '"overridden_gates":["canary","shadow"],"override_reason":"approved",' +
        '"rule":{"source":"rbac_file","index":2,"subject":"group team-orders","glob":"alpha*"},"mod_revision":17}',
    );
  });

  it("reads a record of an older console: missing fields are null or empty", () => {
    expect(auditEntryOf("x", record({ at_ms: 5, actor: "a", target: "t" }), 3)).toEqual({
      id: "x",
      at_ms: 5,
      actor: "a",
      target: "t",
      before: null,
      after: null,
      reason: null,
      overridden_gates: [],
      override_reason: null,
      rule: null,
      mod_revision: 3,
    });
    const odd = auditEntryOf(
      "x",
      record({ at_ms: 5, actor: "a", target: "t", reason: 9, overridden_gates: "g", rule: { source: "x" } }),
      3,
    );
    expect(odd?.reason).toBeNull();
    expect(odd?.overridden_gates).toEqual([]);
    expect(odd?.rule).toBeNull();
  });

  it.each([
    ["not JSON", Buffer.from("{oops")],
    ["not an object", record([1, 2])],
    ["null", record(null)],
    ["a string at_ms", record({ at_ms: "5", actor: "a", target: "t" })],
    ["no actor", record({ at_ms: 5, target: "t" })],
    ["a numeric target", record({ at_ms: 5, actor: "a", target: 1 })],
  ])("skips a malformed record (%s)", (_what, value) => {
    expect(auditEntryOf("x", value, 1)).toBeNull();
  });

  it("never throws, whatever the bytes", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue().map((v) => JSON.stringify(v) ?? ""),
          fc.string(),
        ),
        (text) => {
          const entry = auditEntryOf("x", Buffer.from(text), 1);
          return entry === null || (typeof entry.actor === "string" && Array.isArray(entry.overridden_gates));
        },
      ),
    );
  });
});
