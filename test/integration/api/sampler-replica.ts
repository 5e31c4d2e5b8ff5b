// One console replica's shadow sampler as its own process (for sampler.test.ts, which
// SIGKILLs the leader to prove the hand-over). Args: endpoints prefix replica-index.
import "../../../lib/sim/node-entry";
import { createRawEtcdClient } from "../../../lib/etcd/raw";
import { ShadowSampler } from "../../../lib/live/sampler";

const [endpoints, prefix, index] = process.argv.slice(2);
const i = Number(index);
const client = createRawEtcdClient({ endpoints: endpoints.split(","), callTimeoutMs: 5000 });
let n = 0;
const sampler = new ShadowSampler({
  client,
  prefix,
  intervalMs: 200,
  electionTtlSecs: Number(process.env.TTL_SECS ?? 3),
  retryMs: 250,
  sample: async () => ({
    at_ms: Date.now() * 10 + i,
    revision: ++n,
    outcomes: { discovery_miss: i, queued_only: 0, running: 0, placement_gap: 0, phantom_task: 0 },
    disagreements: i,
  }),
});
sampler.start();
let last = "";
setInterval(() => {
  const state = sampler.isLeader ? "leader" : "follower";
  if (state !== last) process.stdout.write(`${state} ${Date.now()}\n`);
  last = state;
}, 50);
