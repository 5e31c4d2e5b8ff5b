// Whether two policy documents say the same thing (console-api.md third version: "a save
// that changes nothing in the stored document answers 422 no_change"). Null and absent
// leaves both inherit, empty sections say nothing, and `v` is the format's version, not a
// setting. Pure.

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => v !== null && typeof v === "object" && !Array.isArray(v);

/** `path → JSON of the value` for every set leaf (arrays are leaves), `v` left out. */
function leaves(doc: unknown, prefix = "", out = new Map<string, string>()): Map<string, string> {
  if (!isPlain(doc)) return out;
  for (const [key, value] of Object.entries(doc)) {
    if (prefix === "" && key === "v") continue;
    if (value === null || value === undefined) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (isPlain(value)) leaves(value, path, out);
    else out.set(path, JSON.stringify(value));
  }
  return out;
}

/** True when `a` and `b` set the same leaves to the same values (an absent document sets none). */
export function sameSettings(a: unknown, b: unknown): boolean {
  const x = leaves(a);
  const y = leaves(b);
  if (x.size !== y.size) return false;
  for (const [path, value] of x) if (y.get(path) !== value) return false;
  return true;
}
