// `npx tsx bench/profile-stream.ts`: a CPU profile of the console while PROFILE_STREAMS raw
// demand streams (no browser) are open and a writer puts PROFILE_RATE demand events/s, for
// PROFILE_MS, through the server's inspector (./profiler.ts): where a plan step's time goes.
// Prints the console's CPU in % of one core over the window and the steps it made.
import "../lib/sim/node-entry";
import http from "node:http";
import { PRODUCTION_SHARDS } from "../lib/sim/scenarios/production";
import { burstWriter } from "../test/support/load-driver";
import { fetchMetrics, metricSum } from "../test/support/observe";
import { runBench } from "./harness";
import { profiled } from "./profiler";
import { PREFIX, productionEvent, round, sleep, treeCpuMs, withProductionStack } from "./stack";

runBench(async () => {
  const rate = Number(process.env.PROFILE_RATE ?? 10);
  const windowMs = Number(process.env.PROFILE_MS ?? 15_000);
  const streams = Number(process.env.PROFILE_STREAMS ?? 1);
  const query = process.env.PROFILE_QUERY ?? "";
  await withProductionStack({ name: "profile-stream", inspect: true }, async (stack) => {
    const frames = { count: 0, bytes: 0 };
    const open = Array.from({ length: streams }, () =>
      http.get(`${stack.app.url}/api/v1/scheduler/demand/stream${query}`, (res) =>
        res.on("data", (chunk: Buffer) => {
          frames.bytes += chunk.length;
          frames.count += (chunk.toString().match(/event: changes/g) ?? []).length;
        }),
      ),
    );
    const writer = burstWriter(stack.etcd, 1000 / rate, (n) => [
      productionEvent(PREFIX, (n * 31 + 5) % stack.tables, PRODUCTION_SHARDS[1], 1),
    ]);
    const pid = stack.app.process.pid!;
    let cpu = 0;
    let steps = 0;
    const summary = await profiled(
      stack.app.inspectorUrl!,
      "stream",
      async () => {
        writer.start();
        await sleep(3000);
      },
      async () => {
        const before = treeCpuMs(pid);
        const stepsBefore = metricSum(await fetchMetrics(stack.app.url), "console_demand_stream_steps_total");
        const t0 = performance.now();
        await sleep(windowMs);
        cpu = (treeCpuMs(pid) - before) / (performance.now() - t0);
        steps = metricSum(await fetchMetrics(stack.app.url), "console_demand_stream_steps_total") - stepsBefore;
      },
    );
    await writer.stop();
    for (const r of open) r.destroy();
    console.log(summary);
    console.log(
      `${streams} stream(s), ${rate} events/s for ${windowMs / 1000} s: console CPU ${round(cpu * 100)} % of a core, ` +
        `${steps} steps (${round(steps / (windowMs / 1000))}/s), ${frames.count} frames, ${round(frames.bytes / 1024)} KB in all`,
    );
  });
});
