// `npx tsx bench/tables-refresh.ts`: which refresh serves the /tables page better — every
// page again with If-None-Match (what the browser's cache gives by itself: 304 for a page
// whose bytes did not change), or the listing's changes (`?since=<listing>`)? On the
// production scenario (13,405 tables × 2 shards) in a fresh etcd and a real `next start`,
// both refresh side by side every 5 s, first with nothing written, then with a writer
// changing ~10 demand events a second (one table's two shards every 200 ms), then with the
// writer and every refresh at one `now_ms` (what plans re-made per change at the same
// `now` give: only the written tables differ). Prints, per
// strategy and phase: wire bytes (gzip, as a browser gets them), requests, 304s, wall time
// and the server's CPU per refresh; and the console's CPU with ten tabs open, refreshing as
// the page does (changes every 2 s) and as it did (every page every 5 s). Writes
// bench/results/tables-refresh.json.
//
// Needs a production build (`npx next build`, or NEXT_DIST_DIR=<dir> for another one).
// Flags: --refreshes=6 --every-ms=5000 --tabs=10 --tabs-seconds=30
import "../lib/sim/node-entry";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { applyChanges } from "../lib/client/resources/demand";
import type { DemandChanges, DemandList } from "../lib/schema/api/demand";
import { startApp } from "../test/support/app";
import { startEtcd } from "../test/support/etcd";
import { EtcdHttp } from "../test/support/etcd-http";
import { cpuMsOf } from "../test/support/observe";
import { productionBurst, seedProduction } from "../test/support/production-load";

const P = "/lance-context/master";
const PATH = "/api/v1/scheduler/demand";

function flag(name: string, fallback: number): number {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg ? Number(arg.slice(name.length + 3)) : fallback;
}

interface Wire {
  status: number;
  etag: string | undefined;
  wireBytes: number;
  body: Buffer;
}

/** A GET as a browser makes it: gzip accepted, If-None-Match from its cache. */
function get(base: string, url: string, etag?: string): Promise<Wire> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { "accept-encoding": "gzip, deflate, br" };
    if (etag) headers["if-none-match"] = etag;
    const req = http.request(`${base}${url}`, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const wire = Buffer.concat(chunks);
        const body = res.headers["content-encoding"] === "gzip" ? gunzipSync(wire) : wire;
        resolve({ status: res.statusCode ?? 0, etag: res.headers.etag, wireBytes: wire.length, body });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** The browser's HTTP cache, reduced to what revalidation needs: url → (ETag, body). */
class BrowserCache {
  private entries = new Map<string, { etag: string; body: Buffer }>();
  requests = 0;
  notModified = 0;
  wireBytes = 0;
  /** rows in bodies that came in full (pages' tables, changes' rows) */
  rowsIn200 = 0;

  async fetch<T>(base: string, url: string): Promise<T> {
    const held = this.entries.get(url);
    const res = await get(base, url, held?.etag);
    this.requests++;
    this.wireBytes += res.wireBytes;
    if (res.status === 304 && held) {
      this.notModified++;
      return JSON.parse(held.body.toString()) as T;
    }
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${res.body.toString().slice(0, 200)}`);
    if (res.etag) this.entries.set(url, { etag: res.etag, body: res.body });
    const parsed = JSON.parse(res.body.toString()) as { tables?: unknown[]; changes?: { rows: unknown[] } | null };
    this.rowsIn200 += parsed.tables?.length ?? parsed.changes?.rows.length ?? 0;
    return parsed as T;
  }
}

/** `{now_ms}` evaluates every refresh at one clock: what plans made per change at the same `now` give. */
type Clock = { now_ms?: number };

const query = (params: Record<string, string | number | boolean>) =>
  `?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString()}`;

/** Every page of the fleet (2,000 a page), the later ones pinned by the first's cursor. */
async function allPages(base: string, cache: BrowserCache, at: Clock = {}): Promise<DemandList> {
  const first = await cache.fetch<DemandList>(base, `${PATH}${query({ limit: 2000, include_idle: true, ...at })}`);
  const tables = [...first.tables];
  let last = first;
  while (last.next_cursor) {
    last = await cache.fetch<DemandList>(
      base,
      `${PATH}${query({ limit: 2000, include_idle: true, cursor: last.next_cursor })}`,
    );
    tables.push(...last.tables);
  }
  return { ...first, tables, listing: last.listing, next_cursor: null };
}

interface Strategy {
  name: string;
  cache: BrowserCache;
  /** rows that travelled (decoded from a 200; a 304 carries none) */
  rowsSent: number;
  refresh(): Promise<number>; // rows held after the refresh
}

/** A strategy that counts the rows its refreshes brought in full. */
function counted(name: string, cache: BrowserCache, refresh: () => Promise<number>): Strategy {
  const s: Strategy = {
    name,
    cache,
    rowsSent: 0,
    async refresh() {
      const before = cache.rowsIn200;
      const rows = await refresh();
      s.rowsSent += cache.rowsIn200 - before;
      return rows;
    },
  };
  return s;
}

function pagesStrategy(base: string, at: Clock = {}): Strategy {
  const cache = new BrowserCache();
  return counted("pages_304", cache, async () => (await allPages(base, cache, at)).tables.length);
}

function changesStrategy(base: string, initial: DemandList, at: Clock = {}): Strategy {
  const cache = new BrowserCache();
  let held = initial;
  return counted("changes_since", cache, async () => {
    const next = await cache.fetch<DemandChanges>(
      base,
      `${PATH}${query({ include_idle: true, since: held.listing, ...at })}`,
    );
    const tables = next.changes && applyChanges(held.tables, next.changes, next.matched);
    held = tables ? { ...next, tables, next_cursor: null } : await allPages(base, cache, at);
    return held.tables.length;
  });
}

interface Figures {
  refreshes: number;
  /** a refresh's wire bytes (gzip) and rows: patches of moving fields are not rows */
  wire_bytes_per_refresh: number;
  rows_sent_per_refresh: number;
  requests_per_refresh: number;
  not_modified_share: number;
  ms_per_refresh: { median: number; max: number };
  server_cpu_ms_per_refresh: number;
}

async function phase(
  strategies: Strategy[],
  refreshes: number,
  everyMs: number,
  pid: number,
  log: (s: string) => void,
): Promise<Record<string, Figures>> {
  const stats = new Map(
    strategies.map((s) => [
      s.name,
      {
        ms: [] as number[],
        cpu: 0,
        bytes0: s.cache.wireBytes,
        req0: s.cache.requests,
        nm0: s.cache.notModified,
        rows0: s.rowsSent,
      },
    ]),
  );
  for (let r = 0; r < refreshes; r++) {
    const tick = Date.now();
    // alternate who goes first: the first request after a plan's time is up pays for the new plan
    for (const s of r % 2 === 0 ? strategies : [...strategies].reverse()) {
      const st = stats.get(s.name)!;
      const cpu0 = cpuMsOf(pid);
      const t0 = performance.now();
      const rows = await s.refresh();
      st.ms.push(performance.now() - t0);
      st.cpu += cpuMsOf(pid) - cpu0;
      log(`${s.name}: ${rows} rows in ${Math.round(st.ms[st.ms.length - 1])} ms`);
    }
    const wait = everyMs - (Date.now() - tick);
    if (wait > 0) await new Promise((res) => setTimeout(res, wait));
  }
  const out: Record<string, Figures> = {};
  for (const s of strategies) {
    const st = stats.get(s.name)!;
    const sorted = [...st.ms].sort((a, b) => a - b);
    const requests = s.cache.requests - st.req0;
    out[s.name] = {
      refreshes,
      wire_bytes_per_refresh: Math.round((s.cache.wireBytes - st.bytes0) / refreshes),
      rows_sent_per_refresh: Math.round((s.rowsSent - st.rows0) / refreshes),
      requests_per_refresh: requests / refreshes,
      not_modified_share: requests === 0 ? 0 : Math.round(((s.cache.notModified - st.nm0) / requests) * 1000) / 1000,
      ms_per_refresh: {
        median: Math.round(sorted[Math.floor(sorted.length / 2)]),
        max: Math.round(sorted[sorted.length - 1]),
      },
      server_cpu_ms_per_refresh: Math.round(st.cpu / refreshes),
    };
  }
  return out;
}

/**
 * `tabs` open /tables pages, nothing written, each refreshing as the page does (its changes
 * every 2 s), then each re-reading every page every 5 s (the refresh the page had): the
 * console's CPU as a share of one core over `seconds`, for each.
 */
async function tabsCpu(base: string, pid: number, tabs: number, seconds: number, log: (s: string) => void) {
  const run = async (everyMs: number, make: () => Promise<Strategy>) => {
    const clients = await Promise.all(Array.from({ length: tabs }, make));
    const until = Date.now() + seconds * 1000;
    const cpu0 = cpuMsOf(pid);
    const t0 = Date.now();
    await Promise.all(
      clients.map(async (c, i) => {
        await new Promise((res) => setTimeout(res, (everyMs * i) / tabs)); // tabs opened at different moments
        while (Date.now() < until) {
          const started = Date.now();
          await c.refresh();
          await new Promise((res) => setTimeout(res, Math.max(0, everyMs - (Date.now() - started))));
        }
      }),
    );
    const share = (cpuMsOf(pid) - cpu0) / (Date.now() - t0);
    return {
      tabs,
      seconds,
      every_ms: everyMs,
      console_cpu_share_of_a_core: Math.round(share * 1000) / 1000,
      wire_bytes_per_s: Math.round(clients.reduce((n, c) => n + c.cache.wireBytes, 0) / seconds),
    };
  };
  const changes = await run(2000, async () => changesStrategy(base, await allPages(base, new BrowserCache())));
  log(`${tabs} tabs, changes every 2 s: ${JSON.stringify(changes)}`);
  const pages = await run(5000, async () => pagesStrategy(base));
  log(`${tabs} tabs, every page every 5 s: ${JSON.stringify(pages)}`);
  return { changes_every_2s: changes, pages_every_5s: pages };
}

async function main(): Promise<void> {
  const refreshes = flag("refreshes", 6);
  const everyMs = flag("every-ms", 5000);
  const log = (s: string) => console.log(`[tables-refresh] ${s}`);
  const cluster = await startEtcd({ size: 1, extraArgs: ["--quota-backend-bytes=4294967296"] });
  let app: Awaited<ReturnType<typeof startApp>> | null = null;
  let writing = false;
  try {
    const etcd = new EtcdHttp(cluster.members[0].clientUrl);
    await seedProduction(etcd, P, log);
    app = await startApp({ ETCD_ENDPOINTS: cluster.endpoints, ETCD_PREFIX: P });
    const base = app.url;
    const pid = app.process.pid!;
    const first = await allPages(base, new BrowserCache());
    log(`first load: ${first.tables.length} rows`);
    const strategies = [pagesStrategy(base), changesStrategy(base, first)];
    for (const s of strategies) await s.refresh(); // each holds a listing (and the pages their ETags)
    const idle = await phase(strategies, refreshes, everyMs, pid, log);
    const tabs = await tabsCpu(base, pid, flag("tabs", 10), flag("tabs-seconds", 30), log);
    writing = true;
    let burst = 0;
    const writer = (async () => {
      while (writing) {
        const started = Date.now();
        await etcd.putMany(productionBurst(P, burst++, 1));
        await new Promise((res) => setTimeout(res, Math.max(0, 200 - (Date.now() - started))));
      }
    })();
    const writes = await phase(strategies, refreshes, everyMs, pid, log);
    // the same writer, every refresh at one `now`: only what the writes changed differs
    const at = { now_ms: Date.now() };
    const fixed = [pagesStrategy(base, at), changesStrategy(base, await allPages(base, new BrowserCache(), at), at)];
    for (const s of fixed) await s.refresh();
    const writesSameNow = await phase(fixed, refreshes, everyMs, pid, log);
    writing = false;
    await writer;
    const result = {
      at: new Date().toISOString(),
      tables: first.tables.length,
      every_ms: everyMs,
      writer_events_per_s: 10,
      nothing_changed: idle,
      writer: writes,
      writer_same_now: writesSameNow,
      tabs,
    };
    console.log(JSON.stringify(result, null, 2));
    const out = path.join(__dirname, "results", "tables-refresh.json");
    fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
    log(`wrote ${out}`);
  } finally {
    writing = false;
    await app?.stop();
    await cluster.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
