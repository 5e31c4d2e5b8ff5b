// `scheduler-console audit`: policy changes newest first, each with who, when, why and the
// takeover gates it overrode (GET /api/v1/audit, console-api.md "Policy edits on a live
// fleet"); `--search` is the API's `q`, a substring of either reason the entry keeps.
import type { Command } from "commander";
import type { AuditResponse } from "../schema/api/audit";
import { countOf, formatCount, formatTime } from "../words/format";
import type { ConsoleClient, Query } from "./client";

interface Options {
  json?: boolean;
}

export interface AuditCli<O extends Options> {
  context: (cmd: Command) => { o: O; client: ConsoleClient };
  print: (o: O, body: unknown, words: () => string) => void;
  pin: (o: O, client: ConsoleClient) => Promise<Query>;
  parseTime: (value: string) => number;
  positiveInt: (what: string, max?: number) => (value: string) => number;
}

const quoted = (s: string | null) => (s === null ? "no reason recorded" : `“${s}”`);

function auditText(body: AuditResponse): string {
  const head = `Policy changes up to revision ${formatCount(body.revision)}: ${countOf(body.entries.length, "entry", "entries")}, newest first`;
  const lines = body.entries.flatMap((e) => [
    `${formatTime(e.at_ms)}  ${e.actor} changed ${e.target} (revision ${formatCount(e.mod_revision)}): ${quoted(e.reason)}`,
    ...(e.overridden_gates.length > 0
      ? [`  overrode the takeover gates ${e.overridden_gates.join(", ")}: ${quoted(e.override_reason)}`]
      : []),
  ]);
  const more =
    body.next_cursor !== null
      ? ["More entries follow: raise --limit, or narrow with --table, --actor or --search."]
      : [];
  return [head, ...lines, ...more].join("\n");
}

export function addAuditCommand<O extends Options>(root: Command, cli: AuditCli<O>): void {
  root
    .command("audit")
    .description("policy changes newest first: who, when, why, and the takeover gates a change overrode")
    .option("--table <table>", "only changes to this table (or _default)")
    .option("--table-contains <text>", "only changes to tables whose name contains this text (any case)")
    .option("--actor <name>", "only changes by this actor")
    .option("--search <text>", "only entries whose reason or override reason contains this text (any case)")
    .option("--from <time>", "only changes at or after this time (ISO 8601 or Unix ms)", cli.parseTime)
    .option("--to <time>", "only changes at or before this time (ISO 8601 or Unix ms)", cli.parseTime)
    .option("--limit <n>", "at most n entries (1..500; the API's default is 50)", cli.positiveInt("--limit", 500))
    .action(
      async (
        opts: {
          table?: string;
          tableContains?: string;
          actor?: string;
          search?: string;
          from?: number;
          to?: number;
          limit?: number;
        },
        cmd: Command,
      ) => {
        const { o, client } = cli.context(cmd);
        const pin = await cli.pin(o, client);
        const body = await client.get<AuditResponse>("/api/v1/audit", {
          target: opts.table,
          target_q: opts.tableContains,
          actor: opts.actor,
          q: opts.search,
          from_ms: opts.from,
          to_ms: opts.to,
          limit: opts.limit,
          revision: pin.revision,
        });
        cli.print(o, body, () => auditText(body));
      },
    );
}
