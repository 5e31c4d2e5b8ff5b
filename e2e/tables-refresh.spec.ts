// /tables is kept live by pushed change-sets (issue 24): once every page of the fleet is
// loaded, the page opens ONE stream (GET /scheduler/demand/stream) and applies each plan
// step's change-set; it never reads the fleet's pages again and never asks `?since=` while
// the stream stands. With a writer running (new tables appear, grow, then leave), every frame
// Chromium received (read off CDP's EventSource events) is applied to the first load as the
// page applies it, and the result equals a fresh paged read of the same plan (revision and
// now_ms of the last frame), row for row. The page shows that listing: its count, and a
// written table's pending generations.
import "../lib/sim/node-entry"; // first: lets lib/etcd load outside Next
import { createRawEtcdClient } from "@/lib/etcd/raw";
import { writerEvent } from "@/lib/planner/join";
import { keys } from "@/lib/schema/keys";
import { publishDemandEvent } from "@/lib/sim/publish";
import { withChanges } from "@/lib/client/resources/demand";
import type { DemandChanges, DemandList } from "@/lib/schema/api/demand";
import { api, e2eState, expect, test } from "./support/fixtures";

const fmt = (n: number) => n.toLocaleString("en-US");
const WRITTEN = Array.from({ length: 6 }, (_, i) => `e2e-stream/table-${i}`);

/** Every table of one plan, paged as the page reads it, at the revision and now of `at`. */
async function freshRead(at: { revision: number; now_ms: number }): Promise<DemandList> {
  const q = `include_idle=true&limit=2000&revision=${at.revision}&now_ms=${at.now_ms}`;
  const first = await api<DemandList>(`/api/v1/scheduler/demand?${q}`);
  const tables = [...first.tables];
  for (let cursor = first.next_cursor; cursor;) {
    const page = await api<DemandList>(`/api/v1/scheduler/demand?${q}&cursor=${encodeURIComponent(cursor)}`);
    tables.push(...page.tables);
    cursor = page.next_cursor;
  }
  return { ...first, tables, next_cursor: null };
}

test("pushed change-sets keep /tables exactly as a fresh read, with a writer running", async ({ page }) => {
  test.setTimeout(240_000);
  const frames: { id: string; data: string }[] = [];
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  cdp.on("Network.eventSourceMessageReceived", (e: { eventName: string; eventId: string; data: string }) => {
    if (e.eventName === "changes") frames.push({ id: e.eventId, data: e.data });
  });
  // the first load's pages (the base the frames apply to), and any ask for changes
  const firstLoad: DemandList[] = [];
  let asks = 0;
  let streams = 0;
  page.on("request", (r) => {
    const url = r.url();
    if (url.includes("/api/v1/scheduler/demand/stream")) streams++;
    else if (url.includes("/api/v1/scheduler/demand") && url.includes("since=")) asks++;
  });
  page.on("response", async (r) => {
    if (r.url().includes("/api/v1/scheduler/demand?") && r.url().includes("limit=2000") && r.status() === 200)
      firstLoad.push((await r.json()) as DemandList);
  });

  const before = await api<DemandList>("/api/v1/scheduler/demand?limit=1&include_idle=true");
  await page.goto("/tables");
  const count = page.getByTestId("tables-count");
  await expect(count).toContainText(`${fmt(before.total_tables)} of ${fmt(before.total_tables)} shown`);
  await expect.poll(() => streams, { message: "the page opens the stream" }).toBe(1);
  const pagesLoaded = firstLoad.length;

  // the header's "live · rev N" and the page's own revision, read in one go: the header
  // never trails the page (a pushed step lands between two health polls)
  const revisionsShown = () =>
    page.evaluate(() => {
      const num = (id: string, re: RegExp) =>
        Number(
          re.exec(document.querySelector(`[data-testid="${id}"]`)?.textContent ?? "")?.[1]?.replace(/,/g, "") ?? NaN,
        );
      return { header: num("live-state", /rev ([\d,]+)/), page: num("shown-revision", /revision ([\d,]+)/) };
    });
  const shown: { header: number; page: number }[] = [];

  // the writer: new tables appear, grow three times, then all but two leave
  const { etcdEndpoints, prefix } = e2eState();
  const client = createRawEtcdClient({ endpoints: etcdEndpoints.split(","), callTimeoutMs: 30_000 });
  let end = 0;
  try {
    for (let round = 1; round <= 3; round++)
      for (const target of WRITTEN) {
        const event = writerEvent({
          shard: "s1",
          sealed: round * 7,
          bytes: round * 7_000,
          epoch: 1,
          flushedAtMs: Date.now(),
        });
        expect(await publishDemandEvent(client, prefix, target, event)).toBe(true);
        await new Promise((r) => setTimeout(r, 100)); // a writer's pace: ~10 events/s
        shown.push(await revisionsShown());
      }
    for (const target of WRITTEN.slice(2)) {
      const deleted = await client
        .delete()
        .key(keys.demandEvent(prefix, target, "s1"))
        .exec();
      // etcd's revision after the writer's last change (the API may still answer from the plan
      // before it: a request is served the newest finished plan)
      end = Math.max(end, Number(deleted.header.revision));
    }
  } finally {
    client.close();
  }

  // the page reaches the writer's last revision by pushes alone
  const last = () => (frames.length ? (JSON.parse(frames[frames.length - 1].data) as DemandChanges) : null);
  await expect
    .poll(() => last()?.revision ?? 0, { timeout: 60_000, message: "a pushed step at the writer's last revision" })
    .toBeGreaterThanOrEqual(end);
  expect(frames.length, "several steps were pushed").toBeGreaterThan(1);
  const behind = shown.filter((r) => !(r.header >= r.page));
  expect(behind, "the header's live revision is never older than the page's").toEqual([]);
  expect(new Set(shown.map((r) => r.page)).size, "the page moved while the writer wrote").toBeGreaterThan(1);

  // every frame applied, in order, to the first load (as lib/client/fleet-stream.ts does)
  const pages = firstLoad.slice(0, pagesLoaded);
  let held: DemandList | null = {
    ...pages[0],
    tables: pages.flatMap((p) => p.tables),
    listing: pages[pages.length - 1].listing,
    next_cursor: null,
  };
  for (const f of frames) {
    const body = JSON.parse(f.data) as DemandChanges;
    expect(f.id, "each event's id is its listing (a reconnect resumes from it)").toBe(body.listing);
    if (held.listing === body.listing) continue;
    held = withChanges(held, body);
    expect(held, `the frame to ${body.listing} applies to the listing held`).not.toBeNull();
    if (!held) break;
  }
  const final = last()!;
  const fresh = await freshRead({ revision: final.revision, now_ms: final.now_ms });
  expect(held!.tables.length).toBe(fresh.tables.length);
  expect(held!.tables).toEqual(fresh.tables);
  expect(
    fresh.tables
      .filter((t) => WRITTEN.includes(t.target))
      .map((t) => t.target)
      .sort(),
  ).toEqual(WRITTEN.slice(0, 2));

  // the page shows that listing, and read nothing else to get there
  await expect(count).toContainText(`${fmt(fresh.total_tables)} of ${fmt(fresh.total_tables)} shown`);
  await page.getByRole("searchbox").first().fill(WRITTEN[0]);
  const row = page.getByTestId("table-row").filter({ hasText: WRITTEN[0] });
  await expect(row).toContainText(fmt(fresh.tables.find((t) => t.target === WRITTEN[0])!.pending_generations));
  expect(firstLoad.length, "no page of the fleet was read again").toBe(pagesLoaded);
  expect(asks, "no ?since= ask while the stream stands").toBe(0);
  expect(streams, "one stream, never reopened").toBe(1);

  // the fleet as it was for the specs after this one
  const cleanup = createRawEtcdClient({ endpoints: etcdEndpoints.split(","), callTimeoutMs: 30_000 });
  try {
    for (const target of WRITTEN.slice(0, 2))
      await cleanup
        .delete()
        .key(keys.demandEvent(prefix, target, "s1"))
        .exec();
  } finally {
    cleanup.close();
  }
});

test("eight /tables pages in one browser all stay live, at most three of them streaming and the others kept by their events, and the console's other pages still load", async ({
  page,
}) => {
  test.setTimeout(180_000);
  // a browser keeps six connections to the console, and a stream holds one for good: before the
  // slots (lib/client/fleet-stream.ts), an eighth /tables page never loaded, nor did any page after it
  const context = page.context();
  const streaming = new Set<unknown>();
  const asks = new Map<unknown, number>();
  context.on("request", (r) => {
    const url = new URL(r.url());
    if (url.pathname === "/api/v1/scheduler/demand/stream") streaming.add(r.frame().page());
    if (url.pathname === "/api/v1/scheduler/demand" && url.searchParams.has("since"))
      asks.set(r.frame().page(), (asks.get(r.frame().page()) ?? 0) + 1);
    if (url.pathname === "/api/v1/health") health++;
  });
  let health = 0;
  const pages = [page, ...(await Promise.all(Array.from({ length: 7 }, () => context.newPage())))];
  for (const p of pages) {
    await p.goto("/tables");
    await expect(p.getByTestId("table-row").first()).toBeVisible();
  }
  const other = await context.newPage();
  await other.goto("/failures");
  await expect(other.getByRole("heading", { level: 1 })).toBeVisible();
  await expect.poll(() => streaming.size, { timeout: 30_000 }).toBeGreaterThan(0);
  expect(streaming.size).toBeLessThanOrEqual(3);

  // a writer: every page reaches its last revision, the five without a slot by the events the
  // streaming pages pass on (a page asking `?since=` every 2 s would ask ~4 times in 8 s)
  const { etcdEndpoints, prefix } = e2eState();
  const client = createRawEtcdClient({ endpoints: etcdEndpoints.split(","), callTimeoutMs: 30_000 });
  const target = "e2e-stream/shared";
  let end = 0;
  try {
    for (let round = 1; round <= 3; round++) {
      const event = writerEvent({
        shard: "s1",
        sealed: round * 5,
        bytes: round * 5_000,
        epoch: 1,
        flushedAtMs: Date.now(),
      });
      expect(await publishDemandEvent(client, prefix, target, event)).toBe(true);
      end = (await api<DemandList>("/api/v1/scheduler/demand?limit=1")).revision;
    }
    const shownRevision = (p: (typeof pages)[number]) =>
      p.evaluate(() =>
        Number(
          /revision ([\d,]+)/
            .exec(document.querySelector('[data-testid="shown-revision"]')?.textContent ?? "")?.[1]
            ?.replace(/,/g, "") ?? NaN,
        ),
      );
    for (const p of pages)
      await expect
        .poll(() => shownRevision(p), { timeout: 60_000, message: "each page reaches the writer's revision" })
        .toBeGreaterThanOrEqual(end);
    const asked = [...asks.values()].reduce((a, b) => a + b, 0);
    const polled = health;
    await new Promise((r) => setTimeout(r, 8000)); // a window of asks counted: a wait for time itself
    const askedInWindow = [...asks.values()].reduce((a, b) => a + b, 0) - asked;
    // the header's health poll is shared by the browser's nine pages too: about one a 2 s poll (4 or
    // 5 in the window, a few more when a loaded machine bunches them), not nine pages' own (~36)
    expect(health - polled, "health polls of all nine pages in 8 s").toBeLessThanOrEqual(14);
    expect(askedInWindow, "`?since=` asks of all eight pages in 8 s").toBeLessThanOrEqual(
      pages.length - streaming.size,
    );
  } finally {
    await client
      .delete()
      .key(keys.demandEvent(prefix, target, "s1"))
      .exec();
    client.close();
  }
});
