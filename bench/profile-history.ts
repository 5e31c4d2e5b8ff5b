// `npx tsx bench/profile-history.ts`: a CPU profile of the console answering the 6 h table
// history of bench/history.ts (`GET …/demand/history`, PROFILE_RUNS times after one
// unprofiled request), through the server's inspector (./profiler.ts).
import "../lib/sim/node-entry";
import { runBench } from "./harness";
import { HISTORY_TARGET, writeHistory } from "./history";
import { profiled } from "./profiler";
import { round, timedGet, withProductionStack } from "./stack";

runBench(async () => {
  const runs = Number(process.env.PROFILE_RUNS ?? 4);
  await withProductionStack(
    { name: "profile-history", inspect: true, beforeStart: (_etcd, endpoints, log) => writeHistory(endpoints, log) },
    async (stack) => {
      const history = () =>
        timedGet(`${stack.app.url}/api/v1/scheduler/demand/history?target=${encodeURIComponent(HISTORY_TARGET)}`);
      const summary = await profiled(
        stack.app.inspectorUrl!,
        "history",
        async () => void (await history()),
        async () => {
          for (let k = 0; k < runs; k++) {
            const r = await history();
            stack.log(`history ${round(r.ms)} ms (status ${r.status}, ${r.body.length} bytes)`);
          }
        },
      );
      console.log(summary);
    },
  );
});
