// `npx tsx bench/profile-gc.ts`: the console's collections while PROFILE_STREAMS raw demand
// streams are open and a writer puts PROFILE_RATE demand events/s, for PROFILE_MS (no
// sampling profiler: the CPU figure is the process's own). Counted in the server through its
// inspector (a `gc` PerformanceObserver), by kind: 1 minor (scavenge), 2 major, 4
// incremental, 8 weak callbacks. A step that allocates arrays the size of the fleet shows up
// here, not in a CPU profile's self times. Set APP_NODE_OPTIONS to try V8 flags on the server.
import "../lib/sim/node-entry";
import http from "node:http";
import { PRODUCTION_SHARDS } from "../lib/sim/scenarios/production";
import { burstWriter } from "../test/support/load-driver";
import { runBench } from "./harness";
import { inspector } from "./profiler";
import { PREFIX, productionEvent, round, sleep, treeCpuMs, withProductionStack } from "./stack";

if (process.env.APP_NODE_OPTIONS) process.env.NODE_OPTIONS = process.env.APP_NODE_OPTIONS;

const OBSERVE = `(() => {
  const { PerformanceObserver } = process.getBuiltinModule("node:perf_hooks");
  const g = (globalThis.__consoleGc = {});
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const s = (g[e.detail?.kind ?? 0] ??= { n: 0, ms: 0 });
      s.n++;
      s.ms += e.duration;
    }
  }).observe({ entryTypes: ["gc"] });
  return "observing";
})()`;

runBench(async () => {
  const rate = Number(process.env.PROFILE_RATE ?? 10);
  const windowMs = Number(process.env.PROFILE_MS ?? 20_000);
  const streams = Number(process.env.PROFILE_STREAMS ?? 1);
  await withProductionStack({ name: "profile-gc", inspect: true }, async (stack) => {
    // PROFILE_GZIP=1: the streams take gzip, as a browser's do
    const headers = process.env.PROFILE_GZIP === "1" ? { "accept-encoding": "gzip" } : {};
    const open = Array.from({ length: streams }, () =>
      http.get(`${stack.app.url}/api/v1/scheduler/demand/stream`, { headers }, (res) => res.resume()),
    );
    const writer = burstWriter(stack.etcd, 1000 / rate, (n) => [
      productionEvent(PREFIX, (n * 31 + 5) % stack.tables, PRODUCTION_SHARDS[1], 1),
    ]);
    writer.start();
    await sleep(3000);
    const ins = await inspector(stack.app.inspectorUrl!);
    await ins.send("Runtime.evaluate", { expression: OBSERVE });
    const pid = stack.app.process.pid!;
    const before = treeCpuMs(pid);
    const t0 = performance.now();
    await sleep(windowMs);
    const cpu = (treeCpuMs(pid) - before) / (performance.now() - t0);
    const { result } = (await ins.send("Runtime.evaluate", {
      expression: "JSON.stringify(globalThis.__consoleGc)",
    })) as { result: { value: string } };
    ins.close();
    await writer.stop();
    for (const r of open) r.destroy();
    const kinds: Record<string, { n: number; ms: number }> = JSON.parse(result.value);
    const names: Record<string, string> = { 1: "minor", 2: "major", 4: "incremental", 8: "weak callbacks" };
    const said = Object.entries(kinds).map(([k, s]) => `${names[k] ?? k} ${s.n} (${round(s.ms)} ms)`);
    console.log(
      `${streams} stream(s), ${rate} events/s for ${windowMs / 1000} s: console CPU ${round(cpu * 100)} % of a core; ` +
        `collections: ${said.join(", ")}`,
    );
  });
});
