// `npx tsx bench/profile-loop.ts`: a CPU profile of the console under the closed loop of
// bench/figures.ts (32 clients over list, detail, executors and shadow, with the writer at
// 10 events/s), through the server's inspector (./profiler.ts). The profile covers the
// measured part of the loop; the loop's own figures are printed beside it.
import "../lib/sim/node-entry";
import { productionTarget } from "../lib/sim/scenarios/production";
import { runLoad } from "../test/support/load-driver";
import { runBench } from "./harness";
import { profiled } from "./profiler";
import { withProductionStack } from "./stack";
import { eventWriter } from "./visible";

runBench(async () => {
  const seconds = Number(process.env.PROFILE_SECONDS ?? 20);
  await withProductionStack({ name: "profile-loop", inspect: true }, async (stack) => {
    const targets = Array.from({ length: 500 }, (_, k) => productionTarget((k * 7919) % stack.tables));
    const loop = (warmupMs: number, durationMs: number) =>
      runLoad({
        baseUrl: stack.app.url,
        serverPid: stack.app.process.pid!,
        clients: 32,
        warmupMs,
        durationMs,
        targets,
        writer: eventWriter(stack.etcd, stack.tables),
        log: stack.log,
      });
    let result: Awaited<ReturnType<typeof loop>> | null = null;
    const summary = await profiled(
      stack.app.inspectorUrl!,
      "loop",
      async () => void (await loop(5_000, 5_000)),
      async () => void (result = await loop(1_000, seconds * 1000)),
    );
    console.log(summary);
    const r = result!;
    console.log(
      `p95 ${r.all.p95_ms} ms, p50 ${r.all.p50_ms} ms, ${r.all.requests_per_s} requests/s; by endpoint p50/p95: ${Object.entries(
        r.by_endpoint,
      )
        .map(([e, s]) => `${e} ${s.p50_ms}/${s.p95_ms}`)
        .join(", ")}`,
    );
  });
});
