// `npm run seed -- --scenario realistic,incidents [--endpoints URLS] [--prefix P]`
// `npm run simulate -- [--scenario ...] [--interval-ms 1000]`
// Endpoints and prefix default to ETCD_ENDPOINTS / ETCD_PREFIX (console-api.md). Only
// loopback etcd is accepted unless `--force-remote`.
import "./node-entry";
import { parseArgs } from "node:util";
import { loadEnv } from "@/lib/config/env";
import { createEtcdClient } from "@/lib/etcd/client";
import { runLive } from "./live";
import { assertLoopback } from "./loopback";
import { isScenario, SCENARIOS, seedScenarios, type ScenarioName } from "./seed";

const USAGE = `usage: tsx lib/sim/cli.ts seed --scenario ${SCENARIOS.join(",")} [--endpoints URLS] [--prefix P] [--force-remote]
       tsx lib/sim/cli.ts simulate [--scenario NAMES] [--interval-ms MS] [--endpoints URLS] [--prefix P] [--force-remote]`;

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({
    args: rest,
    options: {
      scenario: { type: "string" },
      endpoints: { type: "string" },
      prefix: { type: "string" },
      "interval-ms": { type: "string" },
      "force-remote": { type: "boolean", default: false },
      "lease-ttl-sec": { type: "string" },
    },
  });
  if (command !== "seed" && command !== "simulate") {
    console.error(USAGE);
    return 2;
  }
  const env = loadEnv({
    ...process.env,
    ...(values.endpoints ? { ETCD_ENDPOINTS: values.endpoints } : {}),
    ...(values.prefix ? { ETCD_PREFIX: values.prefix } : {}),
  });
  assertLoopback(env.etcd.endpoints, values["force-remote"]);
  const names = (values.scenario ?? (command === "seed" ? "realistic,incidents" : ""))
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = names.find((n) => !isScenario(n));
  if (bad !== undefined) {
    console.error(`unknown scenario ${JSON.stringify(bad)}; one of ${SCENARIOS.join(", ")}`);
    return 2;
  }
  const client = createEtcdClient({
    endpoints: env.etcd.endpoints,
    auth: env.etcd.auth,
    tls: env.etcd.tls,
    callTimeoutMs: 30_000,
  });
  const progress = (line: string) => console.error(line);
  try {
    if (names.length > 0) {
      const results = await seedScenarios(client, names as ScenarioName[], {
        prefix: env.etcd.prefix,
        progress,
        leaseTtlSec: values["lease-ttl-sec"] ? Number(values["lease-ttl-sec"]) : undefined,
      });
      for (const [name, r] of Object.entries(results))
        console.log(
          `seeded ${name}: ${r.kvs} keys in ${r.txns} txns under ${env.etcd.prefix} (revision ${r.revision})`,
        );
    }
    if (command === "simulate") {
      const stop = new AbortController();
      for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop.abort());
      console.log(`simulating under ${env.etcd.prefix} on ${env.etcd.endpoints.join(",")} (Ctrl-C stops)`);
      const stats = await runLive(client, {
        prefix: env.etcd.prefix,
        intervalMs: Number(values["interval-ms"] ?? 1000),
        signal: stop.signal,
        log: progress,
      });
      console.log(`stopped after ${stats.ticks} ticks: ${stats.flushes} flushes, ${stats.merges} merges`);
    }
    return 0;
  } finally {
    client.close();
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  },
);
