// `npx tsx bench/profile-gc.ts`: the console's collections while PROFILE_STREAMS raw demand
// streams are open and a writer puts PROFILE_RATE demand events/s, for PROFILE_MS (no
// sampling profiler: the CPU figure is the process's own). Counted in the server through its
// inspector (a `gc` PerformanceObserver), by kind: 1 minor (scavenge), 2 major, 4
// incremental, 8 weak callbacks. A step that allocates arrays the size of the fleet shows up
// here, not in a CPU profile's self times. Set APP_NODE_OPTIONS to try V8 flags on the server
// (they replace lib/config/server-flags.ts's where they name the same flag), or
// PROFILE_GC_VARIANTS="--max-semi-space-size=16|" to compare settings side by side in one
// run: each variant gets its own stack, in turn, PROFILE_GC_ROUNDS times (default 2), and the
// CPU ratio to the first variant is printed.
import "../lib/sim/node-entry";
import http from "node:http";
import { PRODUCTION_SHARDS } from "../lib/sim/scenarios/production";
import { burstWriter } from "../test/support/load-driver";
import { runBench } from "./harness";
import { inspector } from "./profiler";
import { PREFIX, productionEvent, round, sleep, treeCpuMs, withProductionStack } from "./stack";

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

const mib = (json: string, field: string) => round((JSON.parse(json) as Record<string, number>)[field] / 2 ** 20);

interface Measured {
  cpuPct: number;
  said: string;
}

async function measure(rate: number, windowMs: number, streams: number): Promise<Measured> {
  return withProductionStack({ name: "profile-gc", inspect: true }, async (stack) => {
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
    const { result: memory } = (await ins.send("Runtime.evaluate", {
      expression: "JSON.stringify(process.memoryUsage())",
    })) as { result: { value: string } };
    ins.close();
    await writer.stop();
    for (const r of open) r.destroy();
    const kinds: Record<string, { n: number; ms: number }> = JSON.parse(result.value);
    const names: Record<string, string> = { 1: "minor", 2: "major", 4: "incremental", 8: "weak callbacks" };
    const said = Object.entries(kinds).map(([k, s]) => `${names[k] ?? k} ${s.n} (${round(s.ms)} ms)`);
    return {
      cpuPct: round(cpu * 100),
      said:
        `${streams} stream(s), ${rate} events/s for ${windowMs / 1000} s: console CPU ${round(cpu * 100)} % of a core; ` +
        `collections: ${said.join(", ")}; at the end RSS ${mib(memory.value, "rss")} MiB, heap used ${mib(memory.value, "heapUsed")} MiB`,
    };
  });
}

runBench(async () => {
  const rate = Number(process.env.PROFILE_RATE ?? 10);
  const windowMs = Number(process.env.PROFILE_MS ?? 20_000);
  const streams = Number(process.env.PROFILE_STREAMS ?? 1);
  const variants = (process.env.PROFILE_GC_VARIANTS ?? process.env.APP_NODE_OPTIONS ?? "").split("|");
  const rounds = process.env.PROFILE_GC_VARIANTS ? Number(process.env.PROFILE_GC_ROUNDS ?? 2) : 1;
  const cpu = new Map<string, number[]>(variants.map((v) => [v, []]));
  const own = process.env.NODE_OPTIONS;
  for (let r = 0; r < rounds; r++)
    for (const v of variants) {
      // the server's NODE_OPTIONS (test/support/app.ts passes the environment on)
      process.env.NODE_OPTIONS = [own, v].filter(Boolean).join(" ");
      const m = await measure(rate, windowMs, streams);
      if (own === undefined) delete process.env.NODE_OPTIONS;
      else process.env.NODE_OPTIONS = own;
      cpu.get(v)!.push(m.cpuPct);
      console.log(`[${v || "the server's own flags"}] ${m.said}`);
    }
  if (variants.length > 1) {
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const base = mean(cpu.get(variants[0])!);
    for (const v of variants)
      console.log(
        `${v || "the server's own flags"}: console CPU ${cpu.get(v)!.join(", ")} % of a core; ÷ first variant ${round(mean(cpu.get(v)!) / base)}`,
      );
  }
});
