import { hex, emptyTableDemand, parseDemandEventKv, type TableDemand } from "@/lib/schema";
import { foldEvent } from "@/lib/planner";
const mode = process.argv[2];
const kvs: { key: string; value: string }[] = [];
for (let i = 0; i < 13405; i++) {
  const target = `exp-${String(i).padStart(5, "0")}`;
  const p = i % 50;
  for (const s of [1, 2]) {
    const shard = `${(i * 2 + s).toString(16).padStart(8, "0")}-0000-4000-8000-${(i * 7919 + s).toString(16).padStart(12, "0")}`;
    const times: Record<string, number> = {};
    for (let g = 1001; g <= 1000 + p; g++) times[g] = 1_700_000_000_000 + g;
    kvs.push({ key: `${hex(target)}/${shard}`, value: JSON.stringify({ v: 1, shard, sealed_through: 1000 + p, sealed_bytes_through: 67108864, merged_through: 1000, flushed_at_ms: 1.7e12, writer_epoch: 3, source: "scan", ...(p > 0 ? { sealed_times: times } : {}) }) });
  }
}
const xs: number[] = [];
for (let r = 0; r < 7; r++) {
  const parsed = kvs.map((kv) => parseDemandEventKv(kv.key, kv.value)).filter((x) => x.ok) as any[];
  const t0 = performance.now();
  const tables = new Map<string, TableDemand>();
  for (const pr of parsed) {
    let t = tables.get(pr.target);
    if (!t) { t = emptyTableDemand(); if (mode === "null") t.shards = Object.create(null); tables.set(pr.target, t); }
    foldEvent(t, pr.event, 1, 0, pr);
  }
  xs.push(performance.now() - t0);
}
console.log(mode, xs.sort((a, b) => a - b)[3].toFixed(1));
