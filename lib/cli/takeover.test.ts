import { describe, expect, it } from "vitest";
import { readyText } from "./takeover";

describe("ready <table>", () => {
  it("says the gates in words", () => {
    const text = readyText({
      target: "orders/eu",
      now_ms: 0,
      ready: false,
      gates: [
        {
          gate: "fleet_homogeneous",
          ok: false,
          detail: "1 of 2 masters apply policies (0.43.0 or later); master-b runs 0.42.0.",
        },
        { gate: "observed_days", ok: true, detail: "7.2 of 7 days of shadow observations of orders/eu." },
        { gate: "evidence_read", ok: false, detail: "No X-Evidence-Digest." },
      ],
    });
    expect(text).toBe(
      [
        "orders/eu cannot switch to mode planner yet (a save answers takeover_not_ready):",
        "  FAIL fleet_homogeneous: 1 of 2 masters apply policies (0.43.0 or later); master-b runs 0.42.0.",
        "  ok   observed_days: 7.2 of 7 days of shadow observations of orders/eu.",
        "  FAIL evidence_read: No X-Evidence-Digest.",
      ].join("\n"),
    );
  });
});
