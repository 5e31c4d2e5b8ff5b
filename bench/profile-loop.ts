// `npx tsx bench/profile-loop.ts`: a CPU profile of the console's request thread while 32
// clients loop over list, detail, executors and shadow with a writer at 10 events/s (the
// closed loop of ./figures.ts, as bench:isolation runs it), written as a .cpuprofile and
// summarised. Build with names first: CONSOLE_PROFILE_BUILD=1 NEXT_DIST_DIR=.next-prof npm run build.
import "../lib/sim/node-entry";
import { closedLoop } from "./figures";
import { runBench } from "./harness";
import { profiled } from "./profiler";
import { withProductionStack } from "./stack";

runBench(async () => {
  await withProductionStack({ name: "profile-loop", pastCount: 1, inspect: true }, async (stack) => {
    const summary = await profiled(
      stack.app.inspectorUrl!,
      "loop",
      async () => undefined,
      async () => {
        const loop = await closedLoop(stack, "bytes");
        stack.log(`closed loop p95 ${loop.all.p95_ms} ms, ${loop.all.requests_per_s} requests/s`);
      },
    );
    console.log(summary);
  });
});
