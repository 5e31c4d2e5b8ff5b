import "server-only";
// console-api.md "Single sign-on and team rights": who may change which policy. A token from
// CONSOLE_ADMIN_TOKENS is an admin of `*` (CONSOLE_VIEWER_TOKENS: a viewer); a person signed
// in through the provider has the rules of CONSOLE_RBAC_FILE that name them or one of their
// groups (with no file, every signed-in person is a viewer). A save needs an admin rule whose
// glob covers the target; `_default` needs `*`.
import { coveringGlob, EVERY_TARGET } from "@/lib/schema/target-glob";
import type { RightRefusal } from "@/lib/schema/api/session";
import type { RbacRole, RbacRule } from "@/lib/config/rbac-file";
import { isReadOnly, type AuthConfig } from "./config";
import type { Principal } from "./principal";

/** Where a right comes from: a token, a rule of the file (by index), or having signed in at all. */
interface RuleRef {
  source: "token" | "rbac_file" | "sign_in";
  /** the rule's place in CONSOLE_RBAC_FILE (0-based); null for the other sources */
  index: number | null;
  /** what the rule names: `group team-orders` or `actor alice@example.com`; null for the other sources */
  subject: string | null;
}

export interface Grant extends RuleRef {
  role: RbacRole;
  targets: readonly string[];
}

/** The rule that allowed a save, as the audit entry records it: its source and the glob that covered the target. */
export interface AllowingRule extends RuleRef {
  glob: string;
}

export type WriteRight =
  { allowed: true; rule: AllowingRule } | { allowed: false; why: RightRefusal; adminTargets: readonly string[] };

const subjectOf = (r: RbacRule) => (r.group !== null ? `group ${r.group}` : `actor ${r.actor}`);

/** The rules that name this person, by their actor or one of their groups, in file order. */
export function rulesNaming(rules: readonly RbacRule[], actor: string, groups: readonly string[]): RbacRule[] {
  const lowerActor = actor.toLowerCase();
  return rules.filter((r) =>
    r.group !== null ? groups.includes(r.group) : r.actor !== null && r.actor.toLowerCase() === lowerActor,
  );
}

/** Everything this principal may do, in the order a check reads it. */
export function grantsOf(principal: Principal, config: AuthConfig): Grant[] {
  if (principal.role === "anonymous") return [];
  if (!principal.person) {
    return [{ source: "token", index: null, subject: null, role: principal.role, targets: [EVERY_TARGET] }];
  }
  if (config.rules === null)
    return [{ source: "sign_in", index: null, subject: null, role: "viewer", targets: [EVERY_TARGET] }];
  return rulesNaming(config.rules, principal.actor, principal.person.groups).map((r) => ({
    source: "rbac_file",
    index: r.index,
    subject: subjectOf(r),
    role: r.role,
    targets: r.targets,
  }));
}

/** The globs this principal is an admin of (every admin grant's, in order, without repeats). */
export function adminTargetsOf(grants: readonly Grant[]): string[] {
  return [...new Set(grants.filter((g) => g.role === "admin").flatMap((g) => g.targets))];
}

/**
 * May `principal` save `target`'s policy (null: a write that is not one table's, which needs
 * `*`)? The first admin grant whose glob covers it is the rule the audit records.
 */
export function writeRightOn(principal: Principal, config: AuthConfig, target: string | null): WriteRight {
  const grants = grantsOf(principal, config);
  const adminTargets = adminTargetsOf(grants);
  if (isReadOnly(config)) return { allowed: false, why: "read_only", adminTargets };
  if (principal.role === "anonymous") return { allowed: false, why: "signed_out", adminTargets };
  for (const g of grants) {
    if (g.role !== "admin") continue;
    const glob =
      target === null ? (g.targets.includes(EVERY_TARGET) ? EVERY_TARGET : null) : coveringGlob(g.targets, target);
    if (glob !== null) return { allowed: true, rule: { source: g.source, index: g.index, subject: g.subject, glob } };
  }
  return { allowed: false, why: adminTargets.length === 0 ? "not_admin" : "outside_targets", adminTargets };
}
