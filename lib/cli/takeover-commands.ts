// `canary [--window 1h|6h|24h|7d]`, `facts [--window …]` and `ready <table>` (the takeover gate in words).
import { InvalidArgumentError, type Command } from "commander";
import type { CanaryResponse } from "../schema/api/canary";
import type { FactsResponse } from "../schema/api/fleet";
import type { GatesResponse } from "../schema/api/takeover";
import type { ConsoleClient, Query } from "./client";
import { canaryText, factsText, readyText } from "./takeover";

export const WINDOWS: Record<string, number> = {
  "1h": 3_600_000,
  "6h": 21_600_000,
  "24h": 86_400_000,
  "7d": 604_800_000,
};

export function parseWindow(value: string): number {
  const ms = WINDOWS[value];
  if (ms === undefined) throw new InvalidArgumentError(`--window must be one of ${Object.keys(WINDOWS).join(", ")}.`);
  return ms;
}

interface Options {
  json?: boolean;
  nowMs?: number;
}

export interface TakeoverCli<O extends Options> {
  context: (cmd: Command) => { o: O; client: ConsoleClient };
  print: (o: O, body: unknown, words: () => string) => void;
  pin: (o: O, client: ConsoleClient) => Promise<Query>;
}

export function addTakeoverCommands<O extends Options>(root: Command, cli: TakeoverCli<O>): void {
  root
    .command("canary")
    .description(
      "the shadow canary over a window: each outcome's level and trend, agreement, chronic tables, the evidence digest",
    )
    .option("--window <w>", "1h, 6h, 24h or 7d (default 24h)", parseWindow)
    .action(async (opts: { window?: number }, cmd: Command) => {
      const { o, client } = cli.context(cmd);
      const body = await client.get<CanaryResponse>("/api/v1/canary", {
        window_ms: opts.window ?? WINDOWS["24h"],
        ...(await cli.pin(o, client)),
      });
      cli.print(o, body, () => canaryText(body));
    });
  root
    .command("facts")
    .description(
      "the fleet's open questions from its own records: tables, hot share, generation sizes, task durations, and what they imply",
    )
    .option("--window <w>", "1h, 6h, 24h or 7d (default 24h)", parseWindow)
    .action(async (opts: { window?: number }, cmd: Command) => {
      const { o, client } = cli.context(cmd);
      const body = await client.get<FactsResponse>("/api/v1/fleet/facts", {
        window_ms: opts.window ?? WINDOWS["24h"],
        ...(await cli.pin(o, client)),
      });
      cli.print(o, body, () => factsText(body));
    });
  root
    .command("ready")
    .description("whether a table (or _default) may switch to mode planner now: the takeover gates in words")
    .argument("<table>", "the table's target, or _default")
    .option("--evidence <digest>", "the digest of the canary report you read")
    .action(async (target: string, opts: { evidence?: string }, cmd: Command) => {
      const { o, client } = cli.context(cmd);
      const body = await client.get<GatesResponse>("/api/v1/takeover/gates", {
        target,
        evidence_digest: opts.evidence,
      });
      cli.print(o, body, () => readyText(body));
    });
}
