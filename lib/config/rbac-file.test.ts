import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError } from "./config-error";
import { loadEnv } from "./env";
import { loadRbacFile, parseRbacRules } from "./rbac-file";
import { loadSsoEnv, resetSsoEnv } from "./sso-env";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rbac-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let files = 0;
function file(text: string): string {
  const p = path.join(dir, `rules-${++files}.yaml`);
  fs.writeFileSync(p, text);
  return p;
}

const errorsOf = (text: string) => {
  const parsed = parseRbacRules(text);
  if ("rules" in parsed) throw new Error(`expected errors, got ${JSON.stringify(parsed.rules)}`);
  return parsed.errors;
};

describe("CONSOLE_RBAC_FILE (console-api.md: rules {group | actor, role, targets})", () => {
  it("reads a list under rules:, or a bare list, each rule with its index", () => {
    const text = `rules:
  - group: team-orders
    role: admin
    targets: ["orders/*"]
  - actor: Alice@Example.com
    role: viewer
    targets: ["*"]
`;
    expect(parseRbacRules(text)).toEqual({
      rules: [
        { index: 0, group: "team-orders", actor: null, role: "admin", targets: ["orders/*"] },
        { index: 1, group: null, actor: "Alice@Example.com", role: "viewer", targets: ["*"] },
      ],
    });
    expect(parseRbacRules("- {group: sre, role: admin, targets: ['*', clicks]}\n")).toEqual({
      rules: [{ index: 0, group: "sre", actor: null, role: "admin", targets: ["*", "clicks"] }],
    });
    expect(parseRbacRules("rules: []\n")).toEqual({ rules: [] });
  });

  it("names every error at once: the rule's index and the field", () => {
    const text = `rules:
  - group: team-orders
    role: owner
    targets: ["orders/*"]
  - role: admin
    targets: ["*"]
  - group: a
    actor: b
    role: viewer
    targets: []
  - group: sre
    role: admin
    targets: ["or*ders/*", "_default", " spaced", 7]
    grups: x
  - just text
`;
    expect(errorsOf(text)).toEqual([
      'rules[0].role: must be "viewer" or "admin"',
      "rules[1]: needs exactly one of group or actor",
      'rules[2].targets: must name at least one glob (`["*"]` for everything)',
      "rules[2]: needs exactly one of group or actor",
      'rules[3].targets[0]: may hold "*" only at its end (`*` or a prefix such as `orders/*`)',
      'rules[3].targets[1]: cannot name _default: only `"*"` covers the fleet default',
      "rules[3].targets[2]: must be a non-empty name without surrounding spaces",
      "rules[3].targets[3]: must be a glob (text)",
      'rules[3]: "grups" is not a field (group, actor, role, targets)',
      "rules[4]: must be a mapping {group | actor, role, targets}",
    ]);
  });

  it("says where YAML itself is broken, and what the top of the file must be", () => {
    expect(errorsOf("rules:\n  - group: a\n    role: admin\n   targets: [x\n")[0]).toBe(
      "line 4, column 1: Sequence item without - indicator",
    );
    expect(errorsOf("rules:\n  - {group: a, group: b, role: admin, targets: [x]}\n")).toEqual([
      "line 2, column 16: Map keys must be unique",
    ]);
    expect(errorsOf("rules: 7\n")).toEqual([
      "the file must be a list of rules, or a mapping with `rules:` holding one",
    ]);
    expect(errorsOf("who: everyone\n")).toEqual([
      "the file must be a list of rules, or a mapping with `rules:` holding one",
    ]);
  });

  it("fails start-up with one line naming the variable, the file and every error", () => {
    const bad = file("rules:\n  - group: a\n    role: owner\n    targets: []\n");
    expect(() => loadRbacFile(bad)).toThrow(ConfigError);
    try {
      loadEnv({ CONSOLE_RBAC_FILE: bad });
      throw new Error("expected a ConfigError");
    } catch (e) {
      expect((e as Error).message).toBe(
        `invalid configuration: CONSOLE_RBAC_FILE ${bad} has 2 errors: rules[0].role: must be "viewer" or "admin"; ` +
          'rules[0].targets: must name at least one glob (`["*"]` for everything)',
      );
      expect((e as Error).message).not.toContain("\n");
    }
    const missing = path.join(dir, "nope.yaml");
    expect(() => loadEnv({ CONSOLE_RBAC_FILE: missing })).toThrow(
      `invalid configuration: CONSOLE_RBAC_FILE ${missing} cannot be read (ENOENT)`,
    );
  });

  it("a good file loads with the rest of the environment", () => {
    resetSsoEnv();
    const good = file("- {group: team-orders, role: admin, targets: [orders/*]}\n");
    expect(loadSsoEnv({ CONSOLE_RBAC_FILE: good }).rules).toEqual([
      { index: 0, group: "team-orders", actor: null, role: "admin", targets: ["orders/*"] },
    ]);
    expect(loadSsoEnv({}).rules).toBeNull();
  });
});
