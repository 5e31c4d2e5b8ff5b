// `npx tsx bench/policy-preview.ts`: the `_default` preview on the production-shape fleet
// (seed scenario `production`, 13,405 tables): wall time of POST /policies/_default/preview
// over HTTP against `next start` (a production build), median of 5 after one warm-up, for a
// fleet-wide freeze and a fleet-wide threshold change; then, side by side in the same run, a
// light client's health and one-table reads (p95, max) alone and while an admin previews in
// a loop: the preview's two plans of the fleet run in slices (lib/policies/preview.ts), so
// the light client should not wait behind them. Prints the figures; no pass/fail.
import "../lib/sim/node-entry";
import { createRawEtcdClient } from "@/lib/etcd/raw";
import { seedScenarios } from "@/lib/sim/seed";
import { startApp } from "../test/support/app";
import { startEtcd } from "../test/support/etcd";

const PREFIX = "/bench-preview/lance-context/master";
const ADMIN = "bench-admin-token";
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const LIGHT_MS = Number(process.env.BENCH_LIGHT_S ?? 15) * 1000;

async function main() {
  const etcd = await startEtcd();
  const client = createRawEtcdClient({ endpoints: etcd.endpoints.split(","), callTimeoutMs: 60_000 });
  await seedScenarios(client, ["production"], { prefix: PREFIX });
  const app = await startApp({
    ETCD_ENDPOINTS: etcd.endpoints,
    ETCD_PREFIX: PREFIX,
    CONSOLE_ADMIN_TOKENS: ADMIN,
    NEXT_TELEMETRY_DISABLED: "1",
  });
  try {
    const preview = (body: unknown) =>
      fetch(`${app.url}/api/v1/policies/_default/preview`, {
        method: "POST",
        headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json", origin: app.url },
        body: JSON.stringify(body),
      });
    for (const [name, body] of [
      ["mode=frozen", { mode: "frozen" }],
      ["merge.min_generations=12", { merge: { min_generations: 12 } }],
    ] as const) {
      const times: number[] = [];
      let summary = "";
      for (let i = 0; i <= RUNS; i++) {
        const t0 = performance.now();
        const res = await preview(body);
        const json = (await res.json()) as { summary?: unknown; changed?: unknown[] };
        if (i > 0) times.push(performance.now() - t0);
        summary = `${res.status} ${JSON.stringify(json.summary)} changed=${json.changed?.length}`;
      }
      times.sort((a, b) => a - b);
      console.log(
        `${name}: median ${(times[Math.floor(times.length / 2)] / 1000).toFixed(2)} s, min ${(times[0] / 1000).toFixed(2)} s (${summary})`,
      );
    }
    const light = async (ms: number) => {
      const out: number[] = [];
      const end = performance.now() + ms;
      for (let n = 0; performance.now() < end; n++) {
        const t0 = performance.now();
        const path = n % 2 === 0 ? "/api/v1/health" : `/api/v1/scheduler/demand?target=${encodeURIComponent(target)}`;
        const res = await fetch(`${app.url}${path}`);
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
        out.push(performance.now() - t0);
      }
      return out.sort((a, b) => a - b);
    };
    const list = (await (await fetch(`${app.url}/api/v1/scheduler/demand?limit=1`)).json()) as {
      tables: { target: string }[];
    };
    const target = list.tables[0].target;
    const figures = (ms: number[]) =>
      `p95 ${ms[Math.floor(ms.length * 0.95)].toFixed(1)} ms, max ${ms.at(-1)!.toFixed(1)} ms (${ms.length} requests)`;
    const alone = await light(LIGHT_MS);
    let stop = false;
    let previews = 0;
    const admin = (async () => {
      for (let k = 0; !stop; k++) {
        const res = await preview({ merge: { min_generations: 10 + (k % 5) } });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`the preview answered ${res.status}`);
        previews++;
      }
    })();
    const beside = await light(LIGHT_MS);
    stop = true;
    await admin;
    console.log(`light client alone: ${figures(alone)}`);
    console.log(`light client beside ${previews} previews in a loop: ${figures(beside)}`);
  } finally {
    await app.stop();
    client.close();
    await etcd.stop();
  }
}

void main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
