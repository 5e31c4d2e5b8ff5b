// `npm run bench:direct` (issue 46: 32 clients in a closed loop, p95 ≤ 100 ms): the loop of
// ./figures.ts (list, detail, executors and shadow, a writer at 10 events/s) against two
// consoles on ONE etcd with the production fleet, side by side in one run: one answering
// these reads straight from the engine (lib/engine/direct.ts, the default) and one through
// Next's routing (CONSOLE_DIRECT_READS=off). Each console is loaded alone, in turns A B A B,
// so a drift of the machine falls on both. Writes bench/results/direct.json.
import "../lib/sim/node-entry";
import { closedLoop } from "./figures";
import { runBench, writeResult } from "./harness";
import { loadAverage, round, startConsole, withProductionStack } from "./stack";

const ROUNDS = 2;

runBench(async () => {
  await withProductionStack({ name: "direct" }, async (stack) => {
    const routedApp = await startConsole(stack.cluster, { env: { CONSOLE_DIRECT_READS: "off" } });
    try {
      const consoles = { direct: stack, routed: { ...stack, app: routedApp } };
      const runs: Record<"direct" | "routed", { p50_ms: number; p95_ms: number; requests_per_s: number }[]> = {
        direct: [],
        routed: [],
      };
      for (let turn = 1; turn <= ROUNDS; turn++)
        for (const name of ["direct", "routed"] as const) {
          const loop = await closedLoop(consoles[name], "bytes");
          const { p50_ms, p95_ms, requests_per_s } = loop.all;
          runs[name].push({ p50_ms, p95_ms, requests_per_s });
          stack.log(`${name} round ${turn}: p50 ${p50_ms} ms, p95 ${p95_ms} ms, ${requests_per_s} requests/s`);
        }
      const mean = (xs: number[]) => round(xs.reduce((a, b) => a + b, 0) / xs.length, 1);
      const summary = Object.fromEntries(
        (["direct", "routed"] as const).map((name) => [
          name,
          {
            p95_ms: mean(runs[name].map((r) => r.p95_ms)),
            p50_ms: mean(runs[name].map((r) => r.p50_ms)),
            requests_per_s: mean(runs[name].map((r) => r.requests_per_s)),
            runs: runs[name],
          },
        ]),
      );
      const result = {
        tables: stack.tables,
        clients: 32,
        target_p95_ms: 100,
        ...summary,
        p95_ratio_direct_to_routed: round(summary.direct.p95_ms / summary.routed.p95_ms, 2),
        load_average_after: loadAverage(),
        measured_at: new Date().toISOString(),
      };
      stack.log(
        `32-client loop p95: direct ${summary.direct.p95_ms} ms, through Next ${summary.routed.p95_ms} ms (×${result.p95_ratio_direct_to_routed}); requests/s ${summary.direct.requests_per_s} vs ${summary.routed.requests_per_s}`,
      );
      writeResult("direct", result);
    } finally {
      await routedApp.stop();
    }
  });
});
