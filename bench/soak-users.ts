// The soak's simulated users (bench/soak.ts), each a loop until the run ends, all counting
// what the console answered into one tally: streaming /tables tabs and one person walking
// every page in Chromium, an API client reading pinned moments near and far, table
// histories and diffs, the command line, and an admin saving a policy every 10 minutes.
import type { Browser, Page } from "playwright-core";
import { loadClient } from "../test/support/load-client";
import { runCli } from "../test/support/cli";
import type { EtcdHttp } from "../test/support/etcd-http";

export interface Tally {
  requests: number;
  by_status: Record<string, number>;
  five_xx: number;
  /** the first answers that were not 2xx/3xx/4xx-by-design, for the report */
  errors: { at_ms: number; who: string; status: number; what: string }[];
}

export const newTally = (): Tally => ({ requests: 0, by_status: {}, five_xx: 0, errors: [] });

function count(tally: Tally, who: string, status: number, what: string): void {
  tally.requests += 1;
  tally.by_status[status] = (tally.by_status[status] ?? 0) + 1;
  if (status >= 500 || status === 0) {
    if (status >= 500) tally.five_xx += 1;
    if (tally.errors.length < 50) tally.errors.push({ at_ms: Date.now(), who, status, what: what.slice(0, 300) });
  }
}

export interface SoakWorld {
  url: string;
  adminToken: string;
  etcd: EtcdHttp;
  /** the revision right after the seed: a pinned read there is far from the live view */
  seededRevision: number;
  /** tables the users look at */
  tables: readonly string[];
  signal: AbortSignal;
  tally: Tally;
}

const enc = encodeURIComponent;

/** Waits `ms` (forever: until the run ends) or until `signal` aborts; false once it has. */
export function pause(signal: AbortSignal, ms = Infinity): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve(!signal.aborted);
    };
    const timer = Number.isFinite(ms) ? setTimeout(done, ms) : undefined;
    signal.addEventListener("abort", done, { once: true });
  });
}

/** Counts every API answer a page gets (the server's status, not a cache's). */
function watchPage(page: Page, world: SoakWorld, who: string): void {
  page.on("response", (res) => {
    const url = res.url();
    if (!url.includes("/api/")) return;
    count(world.tally, who, res.status(), `${res.request().method()} ${url.slice(world.url.length)}`);
  });
}

/** `n` tabs on /tables, streaming the live listing for the whole run. */
export async function streamingTabs(browser: Browser, world: SoakWorld, n: number): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  for (let i = 0; i < n; i++) {
    const page = await context.newPage();
    watchPage(page, world, `tab ${i + 1}`);
    await page.goto(`${world.url}/tables`);
  }
  await pause(world.signal);
  await context.close();
}

/** One person trying every page, one every `everyMs`, round and round (some pinned). */
export async function pageWalker(browser: Browser, world: SoakWorld, everyMs: number): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  watchPage(page, world, "walker");
  const [giant, other] = world.tables;
  for (let i = 0; ; i++) {
    const near = (await world.etcd.revision()) - 50;
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const paths = [
      "/",
      "/tables",
      `/tables/${enc(giant)}`,
      `/tables/${enc("incident/stalled-merge")}`,
      "/executors",
      "/shadow",
      "/canary",
      "/facts",
      "/failures",
      "/reasons",
      `/diff?from=${enc(hourAgo)}`,
      "/policies",
      `/policies/${enc(other)}`,
      "/audit",
      "/skipped",
      `/tables?revision=${world.seededRevision}`,
      `/tables/${enc(other)}?revision=${near}`,
    ];
    try {
      await page.goto(`${world.url}${paths[i % paths.length]}`, { timeout: 60_000 });
    } catch (e) {
      count(world.tally, "walker", 0, `${paths[i % paths.length]}: ${(e as Error).message}`);
    }
    if (!(await pause(world.signal, everyMs))) break;
  }
  await context.close();
}

/** An API client: pinned lists near and far, a table pinned, its history, a diff over the last hour. */
export async function apiReader(world: SoakWorld, everyMs: number): Promise<void> {
  const client = loadClient("bytes", 2);
  const v1 = `${world.url}/api/v1`;
  const [giant, other] = world.tables;
  for (let i = 0; ; i++) {
    const now = await world.etcd.revision();
    const urls = [
      `${v1}/scheduler/demand?revision=${now - 20}&limit=200`,
      `${v1}/scheduler/demand?revision=${world.seededRevision}&limit=200`,
      `${v1}/scheduler/demand?target=${enc(other)}&revision=${now - 200}`,
      `${v1}/scheduler/demand/history?target=${enc(giant)}`,
      `${v1}/scheduler/diff?from_ms=${Date.now() - 3_600_000}&to_ms=${Date.now()}`,
      `${v1}/scheduler/demand/history?target=${enc(other)}`,
    ];
    const url = urls[i % urls.length];
    const reply = await client.get(url);
    count(
      world.tally,
      "api",
      reply.status,
      `GET ${url.slice(world.url.length)}${reply.problem ? `: ${reply.problem}` : ""}`,
    );
    if (!(await pause(world.signal, everyMs))) break;
  }
  client.close();
}

/** The command line, one command every `everyMs`, in turn. */
export async function cliUser(world: SoakWorld, everyMs: number): Promise<void> {
  const [giant, other] = world.tables;
  const commands = [
    ["tables", "--limit", "20"],
    ["why", giant],
    ["executors"],
    ["shadow"],
    ["history", other],
    ["canary"],
    ["facts"],
    ["diff", "--from", new Date(Date.now() - 1_800_000).toISOString()],
  ];
  for (let i = 0; ; i++) {
    const args = commands[i % commands.length];
    const run = await runCli(world.url, "", args);
    // exit 1 is an error the API answered (or no answer): the status is in its text
    const status = run.code === 0 ? 200 : Number(/\b(5\d\d)\b/.exec(run.err + run.out)?.[1] ?? 0);
    count(world.tally, "cli", status, `scheduler-console ${args.join(" ")}: ${run.err.slice(0, 200)}`);
    if (!(await pause(world.signal, everyMs))) break;
  }
}

/** An admin saving one table's policy every `everyMs` (CAS on its ETag, with a reason). */
export async function policySaver(world: SoakWorld, everyMs: number): Promise<void> {
  const target = world.tables[1];
  const url = `${world.url}/api/v1/policies/${enc(target)}`;
  for (let i = 0; ; i++) {
    if (!(await pause(world.signal, i === 0 ? 60_000 : everyMs))) break;
    const read = await fetch(url);
    count(world.tally, "policy", read.status, `GET ${url}`);
    const res = await fetch(url, {
      method: "PUT",
      headers: {
        authorization: `Bearer ${world.adminToken}`,
        "content-type": "application/json",
        "if-match": read.headers.get("etag") ?? "0",
        "x-change-reason": `soak: policy save ${i + 1}`,
      },
      body: JSON.stringify({ v: 1, merge: { max_age_secs: 3600 + (i % 2) * 600 } }),
    });
    count(world.tally, "policy", res.status, `PUT ${url}: ${res.status === 200 ? "" : await res.text()}`);
  }
}
