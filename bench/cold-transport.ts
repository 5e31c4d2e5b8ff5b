// Child process of bench/api.ts. In a fresh process (JIT cold, like a console's first
// request), after one 1-key range to connect: ONE bare paged read of the whole prefix at
// one revision with lib/etcd's §8.1 reader (no split hints, as a first read has none), and
// nothing else: no parsing, no fold, no plan. Prints `{wall_ms, cpu_ms, pages, keys}`: the
// transport's share of a cold request, which no parser or planner can take back.
import "../lib/sim/node-entry";
import { createRawEtcdClient } from "../lib/etcd/raw";
import { currentRevision, readPrefixPaged } from "../lib/etcd/paged-read";
import { runBench } from "./harness";

async function main() {
  const [endpoints, prefix] = process.argv.slice(2);
  const client = createRawEtcdClient({ endpoints: endpoints.split(","), callTimeoutMs: 30_000 });
  try {
    const revision = await currentRevision(client, prefix);
    const cpu = process.cpuUsage();
    const started = performance.now();
    const read = await readPrefixPaged(client, `${prefix}/`, { revision, probePrefix: prefix });
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    console.log(
      JSON.stringify({
        wall_ms: wall,
        cpu_ms: (used.user + used.system) / 1000,
        pages: read.stats.pages,
        keys: read.kvs.length,
      }),
    );
  } finally {
    client.close();
  }
}

runBench(main);
