// The first write check (console-api.md "Single sign-on and team rights"): whatever route
// calls the policy services, the rule that allows a save must cover that very target.
import { describe, expect, it } from "vitest";
import { POLICY_WRITE_CHECKS, runWriteChecks, type PolicyWriteContext } from "./write-checks";

const ctx = (target: string, glob: string): PolicyWriteContext => ({
  target,
  action: "put",
  doc: { v: 1 },
  stored: { target, doc: null, modRevision: 0 },
  ifMatch: 0,
  principal: { actor: "alice@example.com", role: "admin", person: { groups: ["team-orders"] } },
  rule: { source: "rbac_file", index: 0, subject: "group team-orders", glob },
  headers: new Headers(),
});

describe("target_rights, first of the write checks", () => {
  const [rights] = POLICY_WRITE_CHECKS;
  it("comes before every other check", () => {
    expect(POLICY_WRITE_CHECKS[0].name).toBe("target_rights");
  });
  it("passes a target the rule's glob covers, and refuses one it does not with 403 forbidden", async () => {
    await expect(runWriteChecks(ctx("orders/eu", "orders/*"), [rights])).resolves.toBeUndefined();
    await expect(runWriteChecks(ctx("_default", "*"), [rights])).resolves.toBeUndefined();
    for (const [target, glob] of [
      ["incident/db", "orders/*"],
      ["_default", "orders/*"],
      ["orders", "orders/*"],
    ])
      await expect(runWriteChecks(ctx(target, glob), [rights])).rejects.toMatchObject({
        status: 403,
        code: "forbidden",
      });
  });
});
