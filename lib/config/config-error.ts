// console-api.md "Configuration": a bad value fails with ONE line naming the variable
// (STYLE.md, the idea of t3's env module). Shared by every block of ./env.ts and ./sso-env.ts.
import type { z } from "zod";

/** One-line configuration error; `variable` is the offending environment variable. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`invalid configuration: ${variable} ${detail}`);
    this.name = "ConfigError";
  }
}

/** A secret's value is never echoed back in the error line. */
const isSecretVariable = (variable: string) => /PASSWORD|TOKENS|SECRET/.test(variable);

/** `source` parsed by one block's schema; the first bad variable throws a ConfigError naming it. */
export function parseBlock<S extends z.ZodType>(schema: S, source: Record<string, string | undefined>): z.output<S> {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = String(issue.path[0] ?? "environment");
    const shown = source[variable];
    const value = shown === undefined || isSecretVariable(variable) ? "" : ` (got ${JSON.stringify(shown)})`;
    throw new ConfigError(variable, `${issue.message.replace(/\s+/g, " ")}${value}`);
  }
  return parsed.data;
}
