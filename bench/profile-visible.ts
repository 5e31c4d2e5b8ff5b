// `npx tsx bench/profile-visible.ts`: a CPU profile of the console while one demand event
// at a time is put and polled back (bench/visible.ts `changeToVisible`, PROFILE_RUNS puts,
// idle), through the server's inspector (./profiler.ts), with each put → visible time.
import "../lib/sim/node-entry";
import { runBench } from "./harness";
import { profiled } from "./profiler";
import { round, withProductionStack } from "./stack";
import { changeToVisible } from "./visible";

runBench(async () => {
  const runs = Number(process.env.PROFILE_RUNS ?? 30);
  await withProductionStack({ name: "profile-visible", inspect: true }, async (stack) => {
    let ms: number[] = [];
    const summary = await profiled(
      stack.app.inspectorUrl!,
      "visible",
      async () => void (await changeToVisible(stack, 5, 5000)),
      async () => void (ms = (await changeToVisible(stack, runs, 0)).ms),
    );
    console.log(summary);
    const sorted = [...ms].sort((a, b) => a - b);
    console.log(
      `put → visible over ${runs} puts: median ${round(sorted[sorted.length >> 1])} ms, all ${ms.map((x) => round(x)).join(" ")}`,
    );
  });
});
