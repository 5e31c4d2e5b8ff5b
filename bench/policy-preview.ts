// `npx tsx bench/policy-preview.ts`: the `_default` preview on the production-shape fleet
// (seed scenario `production`, 13,405 tables): wall time of POST /policies/_default/preview
// over HTTP against `next start` (a production build), median of 5 after one warm-up, for a
// fleet-wide freeze and a fleet-wide threshold change. Prints the figures; no pass/fail.
import "../lib/sim/node-entry";
import { createRawEtcdClient } from "@/lib/etcd/raw";
import { seedScenarios } from "@/lib/sim/seed";
import { startApp } from "../test/support/app";
import { startEtcd } from "../test/support/etcd";

const PREFIX = "/bench-preview/lance-context/master";
const ADMIN = "bench-admin-token";
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

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
    for (const [name, body] of [
      ["mode=frozen", { mode: "frozen" }],
      ["merge.min_generations=12", { merge: { min_generations: 12 } }],
    ] as const) {
      const times: number[] = [];
      let summary = "";
      for (let i = 0; i <= RUNS; i++) {
        const t0 = performance.now();
        const res = await fetch(`${app.url}/api/v1/policies/_default/preview`, {
          method: "POST",
          headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json", origin: app.url },
          body: JSON.stringify(body),
        });
        const json = (await res.json()) as { summary?: unknown; changed?: unknown[] };
        if (i > 0) times.push(performance.now() - t0);
        summary = `${res.status} ${JSON.stringify(json.summary)} changed=${json.changed?.length}`;
      }
      times.sort((a, b) => a - b);
      console.log(
        `${name}: median ${(times[Math.floor(times.length / 2)] / 1000).toFixed(2)} s, min ${(times[0] / 1000).toFixed(2)} s (${summary})`,
      );
    }
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
