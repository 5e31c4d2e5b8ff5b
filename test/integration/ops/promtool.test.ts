// The shipped alert rules pass `promtool check rules`, and their unit tests
// (ops/prometheus/console.rules.test.yml: each alert firing and not firing) pass
// `promtool test rules`. promtool comes from Debian's prometheus package (scripts/ensure-system.sh).
import path from "node:path";
import { describe, expect, it } from "vitest";
import { promtool } from "./exposition";

const RULES_DIR = path.resolve(__dirname, "../../../ops/prometheus");

describe("alert rules", () => {
  it("pass promtool check rules", () => {
    const { code, output } = promtool(["check", "rules", "console.rules.yml"], { cwd: RULES_DIR });
    expect(output).toContain("SUCCESS: 10 rules found");
    expect(code, output).toBe(0);
  });

  it("pass their promtool unit tests", () => {
    const { code, output } = promtool(["test", "rules", "console.rules.test.yml"], { cwd: RULES_DIR });
    expect(code, output).toBe(0);
    expect(output).toContain("SUCCESS");
  });
});
