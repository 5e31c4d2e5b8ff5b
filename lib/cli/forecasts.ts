// `scheduler-console forecasts [--window 1h|6h|24h|7d]`: how often each world's forecasts came
// true over a window (GET /api/v1/forecasts/calibration; console-api.md "Forecasts, per world,
// that say how often they come true"), in the words the canary page uses: each world scored on
// the forecasts made while it acted, its what-ifs counted apart.
import type { Command } from "commander";
import type { CalibrationResponse, WorldScoreView } from "../schema/api/forecasts";
import { FORECAST_WORLDS } from "../schema/forecast-codes";
import { formatDuration, formatTime } from "../words/format";
import { shareWords, WORLD_WORDS } from "../words/forecasts";
import { countOf } from "./text";
import { parseWindow, WINDOWS, type TakeoverCli } from "./takeover-commands";

const ms = (n: number | null) => (n === null ? "—" : formatDuration(n));

function worldLines(name: string, s: WorldScoreView, level: number): string[] {
  const w = s.what_if;
  // a world is scored where it acts; its what-ifs ("if the planner ran this table") apart
  const whatIf =
    w.made === 0
      ? []
      : [
          `    what-ifs (made while the other world acted; not counted above): ${w.made} made, ${w.resolved} resolved (${w.within} within, ${w.early} early, ${w.late} late); ${w.open} open, ${w.withdrawn} withdrawn, ${w.lost} lost; coverage ${shareWords(w.coverage)}`,
        ];
  return [
    `  ${name}: ${countOf(s.made, "forecast")} made, ${s.resolved} resolved (${s.within} within, ${s.early} early, ${s.late} late); ${s.open} open, ${s.withdrawn} withdrawn, ${s.lost} lost`,
    `    coverage ${shareWords(s.coverage)} of resolved at the stated ${Math.round(level * 100)} %; median width ${ms(s.median_width_ms)}, median error ${ms(s.median_error_ms)}, median realised wait ${ms(s.median_wait_ms)}; ${s.calibrated} resolved were calibrated`,
    `    reliability (stated → observed): ${s.reliability.map((r) => `${Math.round(r.level * 100)} % → ${shareWords(r.coverage)} (${r.resolved})`).join(", ")}`,
    ...whatIf,
  ];
}

export function forecastsText(r: CalibrationResponse): string {
  const lines = [
    `Forecasts made ${formatTime(r.from_ms)} – ${formatTime(r.to_ms)} (revision ${r.revision}), as they came out by then:`,
    ...FORECAST_WORLDS.flatMap((w) => worldLines(WORLD_WORDS[w].name, r.worlds[w], r.level)),
  ];
  if (r.gaps.length > 0)
    lines.push(
      `  journal gaps (forecasts open across one are lost): ${r.gaps.map((g) => `${formatTime(g.from_ms)} – ${formatTime(g.to_ms)} (${g.reason.replaceAll("_", " ")})`).join("; ")}`,
    );
  if (r.chunks.unreadable > 0)
    lines.push(`  ${countOf(r.chunks.unreadable, "chunk")} could not be read and were left out`);
  return lines.join("\n");
}

export function addForecastsCommand<O extends { json?: boolean; nowMs?: number }>(
  root: Command,
  cli: TakeoverCli<O>,
): void {
  root
    .command("forecasts")
    .description(
      "how often each world's forecasts came true over a window: resolved within, early or late, coverage, median width and error",
    )
    .option("--window <w>", "1h, 6h, 24h or 7d (default 6h)", parseWindow)
    .action(async (opts: { window?: number }, cmd: Command) => {
      const { o, client } = cli.context(cmd);
      const body = await client.get<CalibrationResponse>("/api/v1/forecasts/calibration", {
        window_ms: opts.window ?? WINDOWS["6h"],
        ...(await cli.pin(o, client)),
      });
      cli.print(o, body, () => forecastsText(body));
    });
}
