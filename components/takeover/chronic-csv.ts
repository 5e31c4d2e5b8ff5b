// The chronic list as CSV (RFC 4180 quoting), the export of the canary report.
import type { CanaryResponse } from "@/lib/schema/api/canary";

const quote = (s: string) => (/[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

export function chronicCsv(report: Pick<CanaryResponse, "chronic">): string {
  const rows = report.chronic.map((c) =>
    [quote(c.target), c.outcome, c.share.toFixed(4), String(c.samples), c.in_planner_mode ? "planner" : "legacy"].join(
      ",",
    ),
  );
  // mode: the table's effective mode at the report's revision (planner: its discovery misses are the planner running it)
  return ["target,outcome,share,samples,mode", ...rows].join("\r\n") + "\r\n";
}
