// `npx tsx bench/profile-pinned.ts`: a CPU profile of the console serving cold pinned
// reads (`demand?limit=2000&revision=R`, each at a revision it does not hold), taken
// through the server's inspector (./profiler.ts), written as a .cpuprofile and summarised.
import "../lib/sim/node-entry";
import { runBench } from "./harness";
import { profiled } from "./profiler";
import { PREFIX, round, timedGet, withProductionStack } from "./stack";
import { etcdctlGet } from "./etcdctl-floor";

runBench(async () => {
  const runs = Number(process.env.PROFILE_RUNS ?? 4);
  await withProductionStack({ name: "profile-pinned", pastCount: runs + 1, inspect: true }, async (stack) => {
    const pinned = (revision: number) =>
      timedGet(`${stack.app.url}/api/v1/scheduler/demand?limit=2000&revision=${revision}`);
    const summary = await profiled(
      stack.app.inspectorUrl!,
      "pinned",
      // one unprofiled pinned read: the JIT as warm as the bench's later runs
      async () => void (await pinned(stack.past[runs])),
      async () => {
        for (let k = 0; k < runs; k++) {
          const r = await pinned(stack.past[k]);
          const floor = await etcdctlGet(stack.cluster.endpoints, `${PREFIX}/`, stack.past[k]);
          stack.log(`pinned read ${round(r.ms)} ms (status ${r.status}), floor ${round(floor)} ms`);
        }
      },
    );
    console.log(summary);
  });
});
