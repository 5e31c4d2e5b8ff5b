// Issue 27: one answer on every page. For the seeded world, live and pinned at a past
// revision, a crawler reads what every surface states about a sample of tables and
// executors (the overview, /tables, the table page, /executors, /shadow, /failures, the
// table's history at that revision and the command line's `why`, `tables`, `executors` and
// `history`) and asserts they agree with each other: verdict, executor, class, wait (with
// its bound), position, what runs where, heartbeat ages, retry and cooldown times, and a
// history that ends at the pin.
import type { Page } from "@playwright/test";
import type { DemandList, DemandOne } from "@/lib/client/api-types";
import type { ExecutorsResponse } from "@/lib/schema/api/executors";
import type { FailuresResponse } from "@/lib/schema/api/failures";
import type { HistoryResponse } from "@/lib/schema/api/history";
import type { ShadowResponse } from "@/lib/schema/api/shadow";
import { run } from "../lib/cli/main";
import { codeInWords } from "../lib/words/codes";
import { formatDuration, formatIn, formatLeft, formatTime, slotsText, waitText } from "../lib/words/format";
import { stateInWords } from "../lib/words/time-in-state";
import { api, e2eState, expect, test } from "./support/fixtures";
import { INCIDENT } from "./support/scenario";

/** The command line against the e2e app; its words as lines. */
async function cli(args: string[]): Promise<string[]> {
  let out = "";
  let err = "";
  const code = await run(["--url", e2eState().url, ...args], {
    out: (t) => (out += t),
    err: (t) => (err += t),
    env: {},
  });
  expect(err, args.join(" ")).toBe("");
  expect(code, args.join(" ")).toBe(0);
  return out.trimEnd().split("\n");
}

const href = (path: string, revision: number | null) =>
  revision === null ? path : `${path}${path.includes("?") ? "&" : "?"}revision=${revision}`;
const pinOf = (revision: number | null) => (revision === null ? "" : `&revision=${revision}`);
const cliPin = (revision: number | null) => (revision === null ? [] : ["--revision", String(revision)]);

/** The verdict as the short cells say it (VerdictText) and as `why` says it. */
const cellVerdict = (t: DemandOne["table"]) =>
  t.verdict.state === "would_place" ? `place → ${t.verdict.executor}` : `skip: ${codeInWords(t.verdict.code)}`;

// an overloaded machine may time a read out; that is not what this test is about
test.use({ allowConsoleErrors: [/status of 50[34] /] });
// a shared machine may answer slowly: a crawl of five pages per table takes its time
test.setTimeout(300_000);

async function sampleTargets(revision: number | null): Promise<string[]> {
  const placed = await api<DemandList>(`/api/v1/scheduler/demand?verdict=would_place&limit=1${pinOf(revision)}`);
  const skipped = await api<DemandList>(
    `/api/v1/scheduler/demand?verdict=would_skip&class=critical&limit=1${pinOf(revision)}`,
  );
  return [
    ...new Set([
      ...placed.tables.map((t) => t.target),
      ...skipped.tables.map((t) => t.target),
      INCIDENT.mergingTarget,
      INCIDENT.stalledTarget,
      // a wait that is a lower bound ("≥"): every surface must keep the mark
      INCIDENT.catchingUpTarget,
    ]),
  ];
}

async function checkTable(page: Page, target: string, revision: number | null, withList: boolean): Promise<void> {
  const one = await api<DemandOne>(`/api/v1/scheduler/demand?target=${encodeURIComponent(target)}${pinOf(revision)}`);
  const t = one.table;
  // live waits move with the clock between two reads; a pinned answer's never do
  const wait = revision === null ? null : waitText(t.wait_ms, t.age_bound);

  // the table page (reached by an encoded link: /tables/a%2Fb is the table a/b)
  await page.goto(href(`/tables/${encodeURIComponent(target)}`, revision));
  const why = page.getByTestId("why-not");
  if (t.verdict.state === "would_place") {
    await expect(why).toContainText(`Would place`);
    await expect(why).toContainText(t.verdict.executor);
  } else await expect(why).toContainText(`Would skip: ${codeInWords(t.verdict.code)}`);
  if (wait !== null) await expect(page.getByLabel("demand and score")).toContainText(wait);

  // /tables: the same row says the same (the whole list loads: one table per run)
  if (withList) {
    await page.goto(href(`/tables?q=${encodeURIComponent(target)}`, revision));
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: target, exact: true }) });
    await expect(row).toContainText(cellVerdict(t));
    await expect(row).toContainText(t.class.replace("_", " "));
    if (wait !== null) await expect(row).toContainText(wait);
    if (t.position) await expect(row.getByRole("gridcell").nth(2)).toHaveText(t.position.rank.toLocaleString("en-US"));
  }

  // the command line: `why` and `tables`
  const lines = await cli(["why", target, ...cliPin(revision)]);
  const verdictLine = lines.find((l) => l.startsWith("Verdict: "))!;
  if (t.verdict.state === "would_place") expect(verdictLine).toContain(`would place on ${t.verdict.executor}`);
  else expect(verdictLine).toContain(`would skip: ${codeInWords(t.verdict.code)} [${t.verdict.code}]`);
  if (wait !== null)
    expect(lines.find((l) => l.startsWith("Pending: "))).toContain(
      t.age_bound === "upper" ? `waiting at least ${formatDuration(t.wait_ms)}` : `waiting ${wait}`,
    );
  if (revision !== null) {
    const list = await cli(["tables", "--limit", "2000", ...cliPin(revision)]);
    const cells = list.find((l) => l.startsWith(`${target} `));
    if (cells) expect(cells).toContain(` ${wait} `);
  }

  // what runs where: the table page's execution and the executor card name the same
  const e = t.legacy.execution;
  if (e && e.unfinished) {
    await page.goto(href(`/tables/${encodeURIComponent(target)}`, revision));
    await expect(page.getByTestId("running-execution")).toContainText(e.id);
    await expect(page.getByTestId("running-execution")).toContainText(e.instance);
    await page.goto(href("/executors", revision));
    const card = page.locator(`[data-testid="executor-card"][data-executor="${e.instance}"]`);
    await expect(card.locator(`[data-execution="${e.id}"]`)).toHaveAttribute("data-target", target);
    const shadow = await api<ShadowResponse>(`/api/v1/scheduler/shadow?x=1${pinOf(revision)}`);
    if (shadow.tables.discovery_miss.includes(target)) {
      // /shadow counts it a discovery miss, and says why beside the running merge
      await page.goto(href("/shadow?open=discovery_miss", revision));
      await expect(
        page.getByTestId("outcome-tables-discovery_miss").getByRole("listitem").filter({ hasText: target }),
      ).toContainText(`${e.id} on ${e.instance}`);
    }
  }
}

async function checkExecutors(page: Page, revision: number): Promise<void> {
  const body = await api<ExecutorsResponse>(`/api/v1/scheduler/executors?revision=${revision}`);
  const lines = await cli(["executors", "--revision", String(revision)]);
  await page.goto(href("/executors", revision));
  for (const e of body.executors.slice(0, 6)) {
    const card = page.locator(`[data-testid="executor-card"][data-executor="${e.id}"]`);
    const beat = e.heartbeat_age_ms === null ? "no heartbeat" : `heartbeat ${formatDuration(e.heartbeat_age_ms)} ago`;
    await expect(card.getByTestId("heartbeat-age")).toHaveText(beat);
    const line = lines.find((l) => l.startsWith(`${e.id} `))!;
    expect(line, e.id).toContain(e.heartbeat_age_ms === null ? "none" : `${formatDuration(e.heartbeat_age_ms)} ago`);
    for (const [kind, total] of Object.entries(e.slots_total)) {
      const slots = slotsText(e.slots_reserved[kind] ?? 0, total, e.slots_free[kind] ?? 0);
      await expect(card.getByTestId(`slots-${kind}`)).toHaveText(slots);
      expect(line, e.id).toContain(`${kind} ${slots}`);
    }
    for (const x of e.executions) expect(line).toContain(x.execution_id);
    // an orphan is draining in the master's fold, and says "orphan" in words
    if (e.orphan) {
      expect(e.draining).toBe(true);
      await expect(card).toContainText("orphan");
    }
  }
}

/**
 * Retry and cooldown times, pinned: /failures and the table page count them from the same
 * `now_ms` (the revision's time) and say them in the same words.
 */
async function checkFailures(page: Page, target: string, revision: number): Promise<void> {
  const one = await api<DemandOne>(`/api/v1/scheduler/demand?target=${encodeURIComponent(target)}${pinOf(revision)}`);
  const ledger = await api<FailuresResponse>(`/api/v1/scheduler/failures?revision=${revision}`);
  expect(ledger.now_ms, "one clock for the pin").toBe(one.now_ms);
  const now = one.now_ms;
  const failures = ledger.failures.filter((f) => f.target === target);
  const cooling = ledger.cooldowns.filter((c) => c.target === target && c.cooling && c.until_ms !== null);
  expect(failures.length + cooling.length, `${target} has a failure or a cooldown`).toBeGreaterThan(0);
  await page.goto(href("/failures", revision));
  for (const f of failures) {
    const row = page
      .getByTestId("failure-row")
      .filter({ has: page.getByRole("link", { name: target, exact: true }) })
      .filter({ hasText: f.endpoint });
    await expect(row.getByTestId("countdown")).toHaveText(formatIn(f.next_retry_ms, now));
  }
  for (const c of cooling) {
    const row = page
      .getByTestId("cooldown-row")
      .filter({ has: page.getByRole("link", { name: target, exact: true }) })
      .filter({ has: page.getByRole("cell", { name: c.kind, exact: true }) });
    await expect(row.getByTestId("countdown")).toHaveText(formatLeft(c.until_ms, now));
  }
  await page.goto(href(`/tables/${encodeURIComponent(target)}`, revision));
  const legacy = page.getByLabel("legacy view");
  for (const f of failures)
    await expect(legacy.getByRole("row").filter({ hasText: f.endpoint })).toContainText(formatIn(f.next_retry_ms, now));
  for (const c of cooling)
    await expect(
      legacy.getByRole("row").filter({ has: page.getByRole("cell", { name: c.kind, exact: true }) }),
    ).toContainText(formatLeft(c.until_ms, now));
}

/**
 * A table's history at a pinned revision: nothing after the pin, the chart's last span runs
 * "to" the pin (never "to now"), its table says what the command line's `history` says, and
 * its last point is the table page pinned at that point's revision and time.
 */
async function checkHistory(page: Page, target: string, revision: number): Promise<void> {
  const one = await api<DemandOne>(`/api/v1/scheduler/demand?target=${encodeURIComponent(target)}${pinOf(revision)}`);
  const h = await api<HistoryResponse>(
    `/api/v1/scheduler/demand/history?target=${encodeURIComponent(target)}&to_ms=${one.now_ms}`,
  );
  expect(h.to_ms).toBe(one.now_ms);
  for (const p of h.points) {
    expect(p.revision, "a point after the pin").toBeLessThanOrEqual(revision);
    if (p.at_ms !== null) expect(p.at_ms).toBeLessThanOrEqual(one.now_ms);
  }
  expect(h.points.length, `${target} has a history`).toBeGreaterThan(0);
  const last = h.points.at(-1)!;
  const then = await api<DemandOne>(
    `/api/v1/scheduler/demand?target=${encodeURIComponent(target)}&revision=${last.revision}&now_ms=${last.now_ms}`,
  );
  expect([then.table.class, then.table.verdict.state]).toEqual([last.class, last.verdict?.state]);
  if (then.table.verdict.state === "would_skip") expect(then.table.verdict.code).toBe(last.verdict?.code);

  await page.goto(href(`/tables/${encodeURIComponent(target)}`, revision));
  const summary = page.getByTestId("history-summary");
  await expect(summary).toBeVisible();
  await expect(summary).not.toContainText("to now");
  await page.getByText("The data as a table").click();
  const rows = page.getByTestId("history-table").locator("tbody tr");
  await expect(rows).toHaveCount(h.points.length);
  const lines = await cli(["history", target, "--to", String(one.now_ms), "--from", String(h.from_ms)]);
  for (const [i, p] of h.points.entries()) {
    const words =
      p.verdict === null ? stateInWords("figures_only", null) : stateInWords(p.verdict.state, p.verdict.code);
    await expect(rows.nth(i)).toContainText(words);
    if (p.at_ms === null) continue;
    const at = formatTime(p.at_ms);
    const said = lines.some((l) => l.startsWith(at) && l.includes(` ${p.class} `) && l.includes(words));
    expect(said, `\`history\` says ${p.class}, ${words} at ${at}:\n${lines.join("\n")}`).toBe(true);
  }
}

test("one answer on every page, pinned at a past revision", async ({ page }) => {
  const revision = e2eState().seedRevision;
  const targets = await sampleTargets(revision);
  const lowerBound = await api<DemandOne>(
    `/api/v1/scheduler/demand?target=${encodeURIComponent(INCIDENT.catchingUpTarget)}${pinOf(revision)}`,
  );
  expect(lowerBound.table.age_bound, "the sample holds a wait that is a lower bound").toBe("upper");
  const listed = new Set<string>([INCIDENT.stalledTarget, INCIDENT.catchingUpTarget]);
  for (const target of targets) await checkTable(page, target, revision, listed.has(target));
  for (const target of [INCIDENT.brokenStore, INCIDENT.brokenStoreRepeat]) await checkFailures(page, target, revision);
  for (const target of [INCIDENT.mergingTarget, targets[0]]) await checkHistory(page, target, revision);
  await checkExecutors(page, revision);
  // the overview's "next" is the placements in planner order at that revision
  const placed = await api<DemandList>(`/api/v1/scheduler/demand?verdict=would_place&limit=10&revision=${revision}`);
  await page.goto(href("/", revision));
  await expect(page.getByLabel("placed next").getByRole("link")).toHaveText(placed.tables.map((t) => t.target));
});

test("one answer on every page, live", async ({ page }) => {
  for (const target of await sampleTargets(null)) await checkTable(page, target, null, false);
});

test("a table link with a raw '/' opens the table it meant, pinned too", async ({ page }) => {
  const revision = e2eState().seedRevision;
  await page.goto(`/tables/${INCIDENT.stalledTarget}?revision=${revision}`);
  await expect(page).toHaveURL(
    new RegExp(`/tables/${encodeURIComponent(INCIDENT.stalledTarget)}\\?revision=${revision}$`),
  );
  await expect(page.getByTestId("why-not")).toBeVisible();
});
