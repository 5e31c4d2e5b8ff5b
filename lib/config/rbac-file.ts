// console-api.md "Single sign-on and team rights": CONSOLE_RBAC_FILE, a YAML file of rules
// `{group | actor, role: viewer | admin, targets: [glob]}`. Read and validated at start-up;
// every error is named at once (the file, the rule's index, the field), on one line.
import fs from "node:fs";
import { parseDocument } from "yaml";
import { z } from "zod";
import { ConfigError } from "./config-error";

const RBAC_ROLES = ["viewer", "admin"] as const;
export type RbacRole = (typeof RBAC_ROLES)[number];

/** One rule of the file; `index` is its place in the file (0-based), named in messages and the audit. */
export interface RbacRule {
  index: number;
  group: string | null;
  actor: string | null;
  role: RbacRole;
  /** `*` (every table and `_default`), `orders/*` (a prefix), or one table's exact name */
  targets: string[];
}

/** What a glob may be: `*` alone, a prefix ending in `*`, or an exact name; `*` nowhere else. */
function globProblem(glob: string): string | null {
  if (glob.trim() !== glob || glob === "") return "must be a non-empty name without surrounding spaces";
  if (glob.length > 512) return "is longer than 512 characters";
  if (glob.slice(0, -1).includes("*")) return 'may hold "*" only at its end (`*` or a prefix such as `orders/*`)';
  if (glob === "_default") return 'cannot name _default: only `"*"` covers the fleet default';
  return null;
}

const name = (what: string) =>
  z
    .string(`must be a ${what} name (text)`)
    .min(1, `must be a non-empty ${what} name`)
    .max(256, "is longer than 256 characters");

const ruleSchema = z
  .strictObject({
    group: name("group").optional(),
    actor: name("person's").optional(),
    role: z.enum(RBAC_ROLES, 'must be "viewer" or "admin"'),
    targets: z
      .array(
        z.string("must be a glob (text)").superRefine((glob, ctx) => {
          const problem = globProblem(glob);
          if (problem) ctx.addIssue({ code: "custom", message: problem });
        }),
        'must be a list of globs, e.g. ["orders/*"]',
      )
      .min(1, 'must name at least one glob (`["*"]` for everything)'),
  })
  .superRefine((rule, ctx) => {
    if ((rule.group === undefined) === (rule.actor === undefined))
      ctx.addIssue({ code: "custom", message: "needs exactly one of group or actor", path: [] });
  });

const fileSchema = z.union([
  z.strictObject({ rules: z.array(z.unknown(), "must be a list of rules") }),
  z.array(z.unknown()),
]);

/** `["rules", 1, "targets", 0]` → `rules[1].targets[0]`. */
function pathOf(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, p) => (typeof p === "number" ? `${out}[${p}]` : `${out}.${String(p)}`), "rules");
}

function ruleIssues(raw: unknown, index: number): string[] {
  const parsed = ruleSchema.safeParse(raw);
  if (parsed.success) return [];
  return parsed.error.issues.map((i) => {
    const where = pathOf([index, ...i.path]);
    if (i.code === "unrecognized_keys")
      return `${where}: ${i.keys.map((k) => JSON.stringify(k)).join(", ")} is not a field (group, actor, role, targets)`;
    if (i.code === "invalid_type" && i.path.length === 0)
      return `${where}: must be a mapping {group | actor, role, targets}`;
    return `${where}: ${i.message}`;
  });
}

/** The rules in `text` (the file's YAML), or every problem found in it. */
export function parseRbacRules(text: string): { rules: RbacRule[] } | { errors: string[] } {
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      errors: doc.errors.map((e) => {
        const at = e.linePos?.[0];
        const what = e.message.split("\n")[0].replace(/ at line \d+, column \d+:$/, "");
        return `${at ? `line ${at.line}, column ${at.col}: ` : ""}${what}`;
      }),
    };
  }
  const top = fileSchema.safeParse(doc.toJS() ?? []);
  if (!top.success) return { errors: ["the file must be a list of rules, or a mapping with `rules:` holding one"] };
  const raws = Array.isArray(top.data) ? top.data : top.data.rules;
  const errors = raws.flatMap(ruleIssues);
  if (errors.length > 0) return { errors };
  const rules = raws.map((raw, index) => {
    const r = ruleSchema.parse(raw);
    return { index, group: r.group ?? null, actor: r.actor ?? null, role: r.role, targets: r.targets };
  });
  return { rules };
}

/** The file at `path`, validated; a ConfigError naming the file and every problem otherwise. */
export function loadRbacFile(path: string): RbacRule[] {
  let text: string;
  try {
    text = fs.readFileSync(path, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? "unreadable";
    throw new ConfigError("CONSOLE_RBAC_FILE", `${path} cannot be read (${code})`);
  }
  const parsed = parseRbacRules(text);
  if ("rules" in parsed) return parsed.rules;
  const n = parsed.errors.length;
  throw new ConfigError(
    "CONSOLE_RBAC_FILE",
    `${path} has ${n} ${n === 1 ? "error" : "errors"}: ${parsed.errors.join("; ")}`,
  );
}
