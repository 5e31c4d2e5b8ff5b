import { describe, expect, it } from "vitest";
import { chronicCsv } from "./chronic-csv";

describe("the chronic list as CSV", () => {
  it("quotes what needs quoting, and names each table's mode", () => {
    const csv = chronicCsv({
      chronic: [
        { target: 'a,"b"', outcome: "discovery_miss", share: 0.75, samples: 3, in_planner_mode: true },
        { target: "c/d", outcome: "phantom_task", share: 0.5, samples: 2, in_planner_mode: false },
      ],
    });
    expect(csv).toBe(
      'target,outcome,share,samples,mode\r\n"a,""b""",discovery_miss,0.7500,3,planner\r\nc/d,phantom_task,0.5000,2,legacy\r\n',
    );
  });
});
