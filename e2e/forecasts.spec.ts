// Forecasts per world and deadlines on promises (console-api.md "Forecasts, per world, that
// say how often they come true"): past its bind deadline an orphaned assignment's hold on the
// write turn is worded overdue, with how long, never "clears by itself"; the table page names
// the world each figure is about, the acting world first; the canary page shows the score.
import type { DemandDetail } from "@/lib/schema/api/demand";
import type { CalibrationResponse } from "@/lib/schema/api/forecasts";
import { api, expect, test } from "./support/fixtures";
import { INCIDENT } from "./support/scenario";

test("an assignment past its bind deadline is worded overdue by how long, not 'clears by itself'", async ({ page }) => {
  const target = INCIDENT.orphanTarget;
  const body = await api<DemandDetail>(`/api/v1/scheduler/demand?target=${encodeURIComponent(target)}`);
  // seeded 270 s past its bind deadline and never released: the answer names it overdue
  const held = body.table.why_not.find((w) => w.code === "already_running")!;
  expect(held.retryable).toBe(false);
  expect(held.overdue!.overdue_ms).toBeGreaterThanOrEqual(270_000);

  await page.goto(`/tables/${encodeURIComponent(target)}`);
  const entry = page
    .getByTestId("why-not")
    .getByTestId("why-not-item")
    .filter({ has: page.getByTestId("why-not-code").filter({ hasText: "already_running" }) });
  await expect(entry.getByTestId("why-not-retry")).toHaveText(/^overdue by (\d+h )?\d+m \d\ds$/);
  await expect(entry).not.toContainText("clears by itself");
  await expect(entry.getByTestId("why-not-message")).toContainText(
    /; bind deadline .* passed: overdue by (\d+h )?\d+m \d\ds: until the master releases it/,
  );
});

test("the table page names the acting world first and the other as a what-if", async ({ page }) => {
  const target = INCIDENT.brokenStore;
  const body = await api<DemandDetail>(`/api/v1/scheduler/demand?target=${encodeURIComponent(target)}`);
  expect(body.table.forecasts.map((f) => [f.world, f.acting])).toEqual([
    ["legacy", true],
    ["planner", false],
  ]);
  // the top level is the acting world's
  expect(body.table.position).toEqual(body.table.forecasts[0].position);
  expect(body.table.eta).toEqual(body.table.forecasts[0].eta);

  await page.goto(`/tables/${encodeURIComponent(target)}`);
  const panel = page.getByTestId("place-in-line");
  await expect(panel.getByTestId("forecast-world")).toHaveText([
    "Legacy queue (acts on it now)",
    "Planner (if the planner ran this table)",
  ]);
  // each basis is the server's sentence, as given
  await expect(panel.getByTestId("forecast-basis").first()).toHaveText(`(${body.table.forecasts[0].basis})`);
});

test("the canary page shows how often each world's forecasts came true", async ({ page }) => {
  const body = await api<CalibrationResponse>("/api/v1/forecasts/calibration?window_ms=3600000");
  expect(body.level).toBe(0.8);
  expect(Object.keys(body.worlds)).toEqual(["legacy", "planner"]);
  await page.goto("/canary");
  const panel = page.getByTestId("forecast-calibration");
  await expect(panel).toContainText("Forecasts that come true");
  await expect(panel.getByTestId("forecast-score-legacy")).toContainText("legacy queue");
  // each world scored where it acts; its what-ifs apart, in both the answer and the page
  expect(Object.keys(body.worlds.planner.what_if)).toEqual([
    "made",
    "resolved",
    "within",
    "early",
    "late",
    "open",
    "withdrawn",
    "lost",
    "coverage",
  ]);
  await expect(panel.getByTestId("forecast-what-ifs")).toContainText(
    /What-ifs, counted apart: legacy queue [\d,]+ made, [\d,]+ resolved .*; planner [\d,]+ made/,
  );
  await expect(panel.getByTestId("reliability-chart")).toHaveAttribute("aria-label", /Reliability: stated level/);
});
