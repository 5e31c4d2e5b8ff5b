// The API's answers as digests, for "no behaviour change" across a refactor: seeds the e2e
// fleet (the realistic scenario and its incidents, as e2e/support/stack.ts does) into a
// fresh etcd at a fixed `now`, one txn after another so every key gets the same revision on
// every run, starts the console on the build in the working directory (sampler off: nothing
// but the seed is ever written), and prints one sha-256 of each answer's body per URL, every
// URL pinned with ?revision= (or a time window) and now_ms. Run it on two builds and compare
// the output:   npx tsx test/support/answers-digest.ts > "$OUT"
// What an answer says about the process that made it, not about the fleet, is blanked before
// hashing (`wallClock` below): when the read was made (`read_at_ms`), the answering process's
// part of a listing's name, the live clock of a live-only answer (`now_ms` of the takeover
// gates) and a wall-clock estimate of an undated revision. DUMP_DIR=dir keeps every body.
import "../../lib/sim/node-entry";
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { Etcd3 } from "etcd3";
import { scenarioKvs } from "../../lib/sim/seed";
import { startApp } from "./app";
import { startEtcd } from "./etcd";

const PREFIX = "/lance-context/master";
/** 2025-11-24T16:00:00Z: the fleet's fixed "now" (seeded record times and every answer's now_ms) */
const NOW = 1_764_000_000_000;
const TXN_BYTES = 512 * 1024;

/** The body with the fields that name the process's clock or identity blanked (see above). */
function wallClock(body: string): string {
  return body
    .replace(/"read_at_ms":\d+/g, '"read_at_ms":0')
    .replace(/"listing":"[^".]+\./g, '"listing":"-.')
    .replace(/^\{"target":"([^"]*)","now_ms":\d+/, '{"target":"$1","now_ms":0')
    .replace(/written about [^(]+\(± [^)]+\)/g, "written about -")
    .replace(/"oldest_(at|error)_ms":\d+/g, '"oldest_$1_ms":0');
}

async function seed(client: Etcd3): Promise<{ first: number; last: number; seedDigest: string }> {
  const hash = createHash("sha256");
  let first = 0;
  let last = 0;
  // the realistic scenario dates its heartbeats with the wall clock: pin it to NOW while the kvs are made
  const wallClock = Date.now;
  Date.now = () => NOW;
  try {
    await seedAll();
  } finally {
    Date.now = wallClock;
  }
  return { first, last, seedDigest: hash.digest("hex").slice(0, 16) };

  async function seedAll(): Promise<void> {
    for (const name of ["realistic", "incidents"] as const) {
      let ops: { key: string; value: string }[] = [];
      let bytes = 0;
      const flush = async () => {
        if (ops.length === 0) return;
        const res = await client.kv.txn({
          compare: [],
          success: ops.map((o) => ({ request_put: { key: Buffer.from(o.key), value: Buffer.from(o.value) } })),
          failure: [],
        });
        last = Number(res.header.revision);
        ops = [];
        bytes = 0;
      };
      for (const kv of scenarioKvs(name, PREFIX, NOW)) {
        hash.update(`${kv.key}\0${kv.value}\0`);
        const cost = kv.key.length + kv.value.length;
        if (ops.length >= 100 || (ops.length > 0 && bytes + cost > TXN_BYTES)) await flush();
        ops.push({ key: kv.key, value: kv.value });
        bytes += cost;
      }
      await flush();
      if (first === 0) first = last;
    }
  }
}

function urls(first: number, last: number, table: string): string[] {
  const pin = `revision=${last}&now_ms=${NOW}`;
  const pinFirst = `revision=${first}&now_ms=${NOW}`;
  return [
    `/api/v1/scheduler/demand?${pin}`,
    `/api/v1/scheduler/demand?${pin}&limit=50&sort=wait`,
    `/api/v1/scheduler/demand?${pinFirst}`,
    `/api/v1/scheduler/demand?${pin}&target=${table}`,
    `/api/v1/scheduler/executors?${pin}`,
    `/api/v1/scheduler/assignments?${pin}`,
    `/api/v1/scheduler/failures?${pin}`,
    `/api/v1/scheduler/shadow?${pin}`,
    `/api/v1/scheduler/skipped?${pin}`,
    `/api/v1/scheduler/diff?from=${first}&to=${last}&now_ms=${NOW}`,
    `/api/v1/scheduler/demand/history?target=${table}&from_ms=${NOW - 3_600_000}&to_ms=${NOW}`,
    `/api/v1/scheduler/reasons?from_ms=${NOW - 3_600_000}&to_ms=${NOW}`,
    `/api/v1/revisions/time?revision=${last}`,
    `/api/v1/revisions/change?scope=overview&revision=${last}&direction=back`,
    `/api/v1/policies?revision=${last}`,
    `/api/v1/policies/_default?revision=${last}`,
    `/api/v1/audit?revision=${last}`,
    `/api/v1/fleet/facts?${pin}`,
    `/api/v1/fleet/masters?${pin}`,
    `/api/v1/canary?${pin}`,
    `/api/v1/takeover/gates?target=${table}`,
    `/api/v1/journal/coverage`,
    `/api/v1/openapi.json`,
  ];
}

async function main(): Promise<void> {
  const etcd = await startEtcd();
  const client = new Etcd3({ hosts: etcd.endpoints.split(",") });
  let app: Awaited<ReturnType<typeof startApp>> | undefined;
  try {
    const { first, last, seedDigest } = await seed(client);
    console.log(`seed ${seedDigest} revisions ${first}..${last}`);
    app = await startApp({
      ETCD_ENDPOINTS: etcd.endpoints,
      ETCD_PREFIX: PREFIX,
      CONSOLE_SHADOW_SAMPLER: "off",
      NEXT_TELEMETRY_DISABLED: "1",
    });
    // a table of the seeded list (its first row), for the per-table answers
    const list = await (await fetch(`${app.url}/api/v1/scheduler/demand?revision=${last}&now_ms=${NOW}`)).text();
    const table = encodeURIComponent(/"target":"([^"]+)"/.exec(list)![1]);
    for (const path of urls(first, last, table)) {
      // a pinned read that etcd was too slow for (504 / 503 on a loaded machine) is asked again
      let res = await fetch(`${app.url}${path}`);
      for (let i = 0; i < 5 && (res.status === 503 || res.status === 504); i++) res = await fetch(`${app.url}${path}`);
      const body = Buffer.from(await res.arrayBuffer());
      if (process.env.DUMP_DIR) writeFileSync(`${process.env.DUMP_DIR}/${path.replace(/[^a-z0-9]+/gi, "_")}`, body);
      if (res.status !== 200) console.error(`${path}: ${body.toString("utf8").slice(0, 300)}`);
      const digest = createHash("sha256")
        .update(wallClock(body.toString("utf8")))
        .digest("hex")
        .slice(0, 16);
      console.log(`${res.status} ${digest} ${String(body.length).padStart(9)} ${path}`);
    }
  } finally {
    await app?.stop();
    client.close();
    await etcd.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
