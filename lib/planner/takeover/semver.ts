// Semantic versions (semver.org §11) of the masters' heartbeats (scheduler-model.md §2.4
// `version`), compared against CONSOLE_POLICY_AWARE_VERSION (console-api.md "The takeover
// gate and the canary evidence"). Build metadata is ignored; a pre-release sorts before its
// release. A version that does not parse is never policy-aware.
const SEMVER =
  /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

export interface Semver {
  core: [number, number, number];
  pre: string[];
}

export function parseSemver(text: string): Semver | null {
  const m = SEMVER.exec(text.trim());
  if (!m) return null;
  return { core: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] ? m[4].split(".") : [] };
}

function comparePre(a: string[], b: string[]): number {
  if (a.length === 0 || b.length === 0) return Math.sign(b.length - a.length); // a release is above its pre-releases
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const an = /^\d+$/.test(a[i]);
    const bn = /^\d+$/.test(b[i]);
    if (an && bn) {
      const d = Number(a[i]) - Number(b[i]);
      if (d !== 0) return Math.sign(d);
    } else if (an !== bn)
      return an ? -1 : 1; // numeric identifiers sort first
    else if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return Math.sign(a.length - b.length);
}

/** −1, 0 or 1 as `a` is below, equal to or above `b`. */
export function compareSemver(a: Semver, b: Semver): number {
  for (let i = 0; i < 3; i++) if (a.core[i] !== b.core[i]) return a.core[i] < b.core[i] ? -1 : 1;
  return comparePre(a.pre, b.pre);
}

/** A master applies policies when its version is at least the policy-aware one (unset: none does). */
export function isPolicyAware(version: string | null | undefined, policyAware: string | null): boolean {
  if (policyAware === null || version == null) return false;
  const v = parseSemver(version);
  const min = parseSemver(policyAware);
  return v !== null && min !== null && compareSemver(v, min) >= 0;
}
