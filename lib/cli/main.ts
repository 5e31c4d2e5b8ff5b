// The console's command line (`npx scheduler-console …`): on-call questions answered from
// the HTTP API (console-api.md), in words or as the API's JSON. Exit codes: 0 answered,
// 1 the API answered an error (or could not be reached), 2 the command line was wrong.
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { formatDuration, formatTime } from "../words/format";
import { BACKLOG_CLASSES, CLASS_NAMES } from "../schema/codes";
import { revisionTimeSchema } from "../schema/api/revisions";
import type { DemandList, DemandOne, ExecutorsResponse, ShadowResponse } from "../client/api-types";
import { addAuditCommand } from "./audit";
import { ApiFailure, ConsoleClient, type Query } from "./client";
import { diffText, type FleetDiff } from "./diff";
import { executorsText } from "./executors";
import { historyText } from "./history";
import type { HistoryResponse } from "../schema/api/history";
import { shadowText } from "./shadow";
import { tablesText } from "./tables";
import { addTakeoverCommands } from "./takeover-commands";
import { addForecastsCommand } from "./forecasts";
import { whyText } from "./why";

export const TOKEN_ENV = "SCHEDULER_CONSOLE_TOKEN";
export const URL_ENV = "SCHEDULER_CONSOLE_URL";
export const DEFAULT_URL = "http://localhost:3000";

export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  env: Record<string, string | undefined>;
  fetch?: typeof fetch;
}

interface GlobalOptions {
  url: string;
  token?: string;
  at?: number;
  revision?: number;
  nowMs?: number;
  json?: boolean;
}

/** A command line that parsed but makes no sense (exit 2, like commander's own errors). */
class UsageError extends Error {}

const positiveInt =
  (what: string, max = Number.MAX_SAFE_INTEGER) =>
  (value: string) => {
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max)
      throw new InvalidArgumentError(`${what} must be an integer from 1 to ${max}.`);
    return Number(value);
  };

/** ISO 8601 (`2026-12-01T03:10:00Z`) or Unix milliseconds. */
export function parseTime(value: string): number {
  const ms = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(ms) || ms < 0)
    throw new InvalidArgumentError("expected a time: ISO 8601 (2026-12-01T03:10:00Z) or Unix milliseconds.");
  return ms;
}

/** A diff side: digits are a revision, anything else a wall time (ISO 8601, or `now`). */
export function parseMoment(value: string): { revision: number } | { at_ms: number } {
  if (/^\d+$/.test(value)) return { revision: positiveInt("a revision")(value) };
  if (value === "now") return { at_ms: Date.now() };
  const ms = Date.parse(value);
  if (!Number.isFinite(ms))
    throw new InvalidArgumentError(
      "expected a revision (digits) or a time (ISO 8601, e.g. 2026-12-01T03:10:00Z, or now).",
    );
  return { at_ms: ms };
}

const collect = (choices: readonly string[], what: string) => (value: string, previous: string[] | undefined) => {
  const values = value.split(",").filter(Boolean);
  for (const v of values)
    if (!choices.includes(v)) throw new InvalidArgumentError(`${what} must be one of ${choices.join(", ")}.`);
  return [...(previous ?? []), ...values];
};

/** `--revision R`, or `--at T` resolved through GET /api/v1/revisions/time?at_ms=T, plus `--now-ms`. */
async function pinOf(o: GlobalOptions, client: ConsoleClient, io: CliIo): Promise<Query> {
  const pin: Query = { now_ms: o.nowMs };
  if (o.revision !== undefined) pin.revision = o.revision;
  else if (o.at !== undefined) {
    const t = await client.get("/api/v1/revisions/time", { at_ms: o.at }, revisionTimeSchema);
    pin.revision = t.revision;
    const written =
      t.at_ms === null
        ? "at an unknown time"
        : `${formatTime(t.at_ms)}${t.error_ms === null ? "" : ` ± ${formatDuration(t.error_ms)}`}`;
    if (!o.json)
      io.out(`At ${formatTime(o.at)}: revision ${t.revision}, written ${written} (${t.basis.replaceAll("_", " ")})\n`);
  }
  return pin;
}

/**
 * `--at T` or `--revision R` on `history`: the window ends at that moment (a revision at its
 * written time, through GET /api/v1/revisions/time), as a pinned table page's history does.
 */
async function pinnedEnd(o: GlobalOptions, client: ConsoleClient, io: CliIo): Promise<number | undefined> {
  if (o.at !== undefined) return o.at;
  if (o.revision === undefined) return undefined;
  const t = await client.get("/api/v1/revisions/time", { revision: o.revision }, revisionTimeSchema);
  if (t.at_ms === null)
    throw new ApiFailure(null, "unknown_time", `revision ${o.revision} has no known time to end the window at`);
  if (!o.json)
    io.out(
      `Revision ${t.revision}: written ${formatTime(t.at_ms)} (${t.basis.replaceAll("_", " ")}); the window ends there\n`,
    );
  return t.at_ms;
}

function program(io: CliIo, answered: (code: number) => void): Command {
  const root = new Command("scheduler-console")
    .description("Ask the Scheduler Console what runs next, and why not, from a terminal.")
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .showHelpAfterError("(add --help for usage)")
    .option("--url <url>", `console base URL (env ${URL_ENV})`, io.env[URL_ENV] ?? DEFAULT_URL)
    .option("--token <token>", `bearer token when reads need one (default: env ${TOKEN_ENV}, never shown)`)
    .addOption(
      new Option("--at <time>", "answer as of a wall time (ISO 8601 or Unix ms), through the revision clock")
        .argParser(parseTime)
        .conflicts("revision"),
    )
    .addOption(new Option("--revision <R>", "answer at etcd revision R").argParser(positiveInt("--revision")))
    .addOption(
      new Option("--now-ms <ms>", "evaluate the planner as of this wall time (Unix ms; reproductions)").argParser(
        parseTime,
      ),
    )
    .option("--json", "print the API's JSON answer instead of words");

  const context = (cmd: Command) => {
    const o = cmd.optsWithGlobals() as GlobalOptions;
    return { o, client: new ConsoleClient({ url: o.url, token: o.token ?? io.env[TOKEN_ENV], fetch: io.fetch }) };
  };
  const print = (o: GlobalOptions, body: unknown, words: () => string) => {
    io.out(o.json ? `${JSON.stringify(body, null, 2)}\n` : `${words()}\n`);
    answered(0);
  };

  root
    .command("why")
    .description("the verdict on one table and every reason it is not placed now")
    .argument("<table>", "the table's target")
    .action(async (target: string, _opts, cmd: Command) => {
      const { o, client } = context(cmd);
      const body = await client.get<DemandOne>("/api/v1/scheduler/demand", { target, ...(await pinOf(o, client, io)) });
      print(o, body, () => whyText(body));
    });

  root
    .command("tables")
    .description("tables in planner order, as the /tables page lists them")
    .option(
      "--class <class>",
      `only these classes (repeat or comma-separate: ${CLASS_NAMES.join(", ")})`,
      collect(CLASS_NAMES, "--class"),
    )
    .option(
      "--backlog <backlog>",
      `only these backlog classes (${BACKLOG_CLASSES.join(", ")})`,
      collect(BACKLOG_CLASSES, "--backlog"),
    )
    .option("--limit <n>", "at most n tables (1..2000; the API's default is 100)", positiveInt("--limit", 2000))
    .action(async (opts: { class?: string[]; backlog?: string[]; limit?: number }, cmd: Command) => {
      const { o, client } = context(cmd);
      const body = await client.get<DemandList>("/api/v1/scheduler/demand", {
        class: opts.class,
        backlog: opts.backlog,
        limit: opts.limit,
        ...(await pinOf(o, client, io)),
      });
      print(o, body, () => tablesText(body));
    });

  /** A command that reads one endpoint at the pinned revision and says its answer. */
  const readCommand = <T>(
    name: string,
    description: string,
    path: string,
    words: (body: T, o: GlobalOptions) => string,
  ) =>
    root
      .command(name)
      .description(description)
      .action(async (_opts, cmd: Command) => {
        const { o, client } = context(cmd);
        const body = await client.get<T>(path, await pinOf(o, client, io));
        print(o, body, () => words(body, o));
      });
  readCommand<ExecutorsResponse>(
    "executors",
    "executors with their headroom (free slots and bytes, from assignments) and what runs where",
    "/api/v1/scheduler/executors",
    (body) => executorsText(body),
  );
  readCommand<ShadowResponse>(
    "shadow",
    "the shadow comparison with the legacy queue",
    "/api/v1/scheduler/shadow",
    (body) => shadowText(body),
  );
  addTakeoverCommands(root, { context, print, pin: (o, client) => pinOf(o, client, io) });
  addForecastsCommand(root, { context, print, pin: (o, client) => pinOf(o, client, io) });
  addAuditCommand(root, { context, print, pin: (o, client) => pinOf(o, client, io), parseTime, positiveInt });

  root
    .command("history")
    .description(
      "one table's transitions over a window (default: the 6 h up to now, or up to --at / --revision) and its time in each state",
    )
    .argument("<table>", "the table's target")
    .option("--from <time>", "the window's start (ISO 8601 or Unix ms)", parseTime)
    .option("--to <time>", "the window's end (ISO 8601 or Unix ms; default: now)", parseTime)
    .action(async (target: string, opts: { from?: number; to?: number }, cmd: Command) => {
      const { o, client } = context(cmd);
      if ((o.at !== undefined || o.revision !== undefined) && opts.to !== undefined)
        throw new UsageError("history takes --to, or --at / --revision (the window then ends there), not both.");
      const body = await client.get<HistoryResponse>("/api/v1/scheduler/demand/history", {
        target,
        from_ms: opts.from,
        to_ms: opts.to ?? (await pinnedEnd(o, client, io)),
      });
      print(o, body, () => historyText(body));
    });

  root
    .command("diff")
    .description("what changed between two moments (revisions, or ISO times)")
    .requiredOption("--from <moment>", "a revision (digits) or a time (ISO 8601)", parseMoment)
    .option("--to <moment>", "a revision (digits) or a time (ISO 8601); default: now", parseMoment)
    .action(
      async (
        opts: { from: { revision: number } | { at_ms: number }; to?: { revision: number } | { at_ms: number } },
        cmd: Command,
      ) => {
        const { o, client } = context(cmd);
        if (o.at !== undefined || o.revision !== undefined)
          throw new UsageError("diff takes --from and --to, not --at or --revision.");
        const side = (name: "from" | "to", m: { revision: number } | { at_ms: number }): Query =>
          "revision" in m ? { [name]: m.revision } : { [`${name}_ms`]: m.at_ms };
        const body = await client.get<FleetDiff>("/api/v1/scheduler/diff", {
          ...side("from", opts.from),
          ...(opts.to ? side("to", opts.to) : {}),
        });
        print(o, body, () => diffText(body));
      },
    );
  return root;
}

/** Run one command line (`argv` without node and the script); resolves to the exit code. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  let code = 0;
  const root = program(io, (c) => (code = c));
  try {
    if (argv.length === 0) {
      root.outputHelp();
      return 2;
    }
    await root.parseAsync(argv, { from: "user" });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    if (e instanceof UsageError) {
      io.err(`error: ${e.message}\n`);
      return 2;
    }
    if (e instanceof ApiFailure) {
      io.err(`error: ${e.code}: ${e.message}${e.status === null ? "" : ` (HTTP ${e.status})`}\n`);
      return 1;
    }
    throw e;
  }
}
