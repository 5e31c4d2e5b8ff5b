// `/diff` by time (issue 23): `?from=` takes an ISO time (it used to be ignored) and the
// page picks either side by time; the sides it shows are the API's for the same URL. Every
// time is picked inside etcd's history, from the server's own clock: the e2e fleet is minutes
// old, so a fixed "10 minutes ago" would start before it (time-travel.spec checks that case).
import "../lib/sim/node-entry"; // first: lets lib/etcd load outside Next
import { createRawEtcdClient } from "@/lib/etcd/raw";
import { writerEvent } from "@/lib/planner/join";
import { publishDemandEvent } from "@/lib/sim/publish";
import type { DiffResponse } from "@/lib/schema/api/diff";
import type { RevisionTime } from "@/lib/schema/api/revisions";
import { api, e2eState, expect, test } from "./support/fixtures";

/** a table written by this spec after its `from`: it appears in the diff */
const APPEARED = "e2e/diff-time-appeared";
const MINUTE = 60_000;

/** The server's clock now (a live answer's `now_ms`). */
const serverNow = async () => (await api<{ now_ms: number }>("/api/v1/scheduler/executors")).now_ms;

/** Whether the console's own clock samples date `atMs` (so it is inside etcd's history, and its revision is fixed). */
async function sampled(atMs: number): Promise<boolean> {
  const res = await fetch(`${e2eState().url}/api/v1/revisions/time?at_ms=${atMs}`);
  return res.ok && ((await res.json()) as RevisionTime).basis === "console_clock";
}

/**
 * A whole minute before the server clock's current one (so it is not the minute the picker
 * already shows for "now"), once the console's samples date a second before it (a spec run
 * alone on a fresh stack waits for the history to be that old).
 */
async function pastMinute(): Promise<number> {
  let minute = 0;
  await expect
    .poll(
      async () => {
        minute = Math.floor(((await serverNow()) - 5_000) / MINUTE) * MINUTE - MINUTE;
        return sampled(minute - 1000);
      },
      { timeout: 120_000, intervals: [2_000] },
    )
    .toBe(true);
  return minute;
}

test("a diff from an ISO time shows the API's sides; picking `to` by time puts it in the URL", async ({ page }) => {
  test.setTimeout(240_000);
  const minute = await pastMinute();
  const from = new Date(minute - 1000).toISOString();
  // written after `from` (whose revision is a sample's from before it): the table appears
  const { etcdEndpoints, prefix } = e2eState();
  const client = createRawEtcdClient({ endpoints: etcdEndpoints.split(","), callTimeoutMs: 30_000 });
  try {
    const now = await serverNow();
    await publishDemandEvent(
      client,
      prefix,
      APPEARED,
      writerEvent({ shard: "s1", sealed: 3, bytes: 3_000, epoch: 1, flushedAtMs: now }),
    );
  } finally {
    client.close();
  }
  const d = await api<DiffResponse>(`/api/v1/scheduler/diff?from=${encodeURIComponent(from)}`);
  expect(d.history_starts).toBeNull();
  expect(d.tables.appeared).toContain(APPEARED);
  await page.goto(`/diff?from=${encodeURIComponent(from)}`);
  await expect(page.getByTestId("diff-sides")).toContainText(
    `From revision ${d.from.revision.toLocaleString("en-US")}`,
  );
  await expect(page.getByTestId("diff-history-starts")).toHaveCount(0);
  // the pickers show the time the URL asked for, UTC, 24-hour, to the second (never the revision's time rounded down)
  await expect(page.getByLabel("from (UTC)")).toHaveValue(from.slice(0, 19).replace("T", " "));
  await expect(page.getByTestId("count-appeared")).toContainText(d.counts.appeared.toLocaleString("en-US"));
  // the drill-down is filterable (`?q=` in the URL)
  await page.getByTestId("count-appeared").click();
  await page.getByTestId("diff-filter").fill(APPEARED);
  await expect(page).toHaveURL(/q=/);
  await expect(page.getByTestId("diff-members").getByRole("link")).toHaveText(
    d.tables.appeared.filter((t) => t.toLowerCase().includes(APPEARED)),
  );
  // `to`: the whole minute a second after `from`, picked by time
  const to = new Date(minute).toISOString().slice(0, 16);
  await page.getByLabel("to (UTC)").fill(to);
  await expect(page).toHaveURL(new RegExp(`to=${to.replace(":", "(:|%3A)")}(:|%3A)00Z`));
  const after = await api<DiffResponse>(
    `/api/v1/scheduler/diff?from=${encodeURIComponent(from)}&to=${encodeURIComponent(`${to}:00Z`)}`,
  );
  expect(after.history_starts).toBeNull();
  await expect(page.getByTestId("diff-sides")).toContainText(
    `to revision ${after.to.revision.toLocaleString("en-US")}`,
  );
});

test("`?since=` on a pinned page counts back from the pin's own time, not the browser's clock", async ({ page }) => {
  test.setTimeout(240_000);
  // a pin at least a minute into the console's samples, so a minute back from it is inside the history
  await expect
    .poll(async () => sampled((await serverNow()) - 70_000), { timeout: 120_000, intervals: [2_000] })
    .toBe(true);
  const pin = (await api<{ revision: number }>("/api/v1/scheduler/executors")).revision;
  const t = await api<{ at_ms: number }>(`/api/v1/revisions/time?revision=${pin}`);
  const url = `/api/v1/scheduler/diff?from_ms=${t.at_ms - MINUTE}&to=${pin}`;
  const d = await api<DiffResponse>(url);
  expect(d.history_starts).toBeNull();
  // the browser's clock is a day ahead: a page that read it would start a day later
  await page.clock.setFixedTime(Date.now() + 86_400_000);
  await page.goto(`/diff?since=1m&revision=${pin}`);
  await expect(page.getByTestId("diff-sides")).toContainText(
    `From revision ${d.from.revision.toLocaleString("en-US")}`,
  );
  await expect(page.getByTestId("diff-sides")).toContainText(`to revision ${pin.toLocaleString("en-US")}`);
  // the answer names how its verdicts were reached
  // the answer names how its verdicts were reached: as the API said it just before or just after
  // the page asked (the decision journal may cover the pin's moment in between, never the reverse)
  const basis = (b: DiffResponse) =>
    b.verdict_basis === "journal"
      ? "Both sides' verdicts are read from the decision journal"
      : b.from.verdict_basis === "journal" || b.to.verdict_basis === "journal"
        ? "the other is re-planned"
        : "Both sides are re-planned";
  await expect(page.getByTestId("diff-basis")).not.toBeEmpty();
  const later = await api<DiffResponse>(url);
  const said = (await page.getByTestId("diff-basis").textContent()) ?? "";
  expect(
    [basis(d), basis(later)].some((words) => said.includes(words)),
    said,
  ).toBe(true);
});
