// The table a skipped record's key names, where its key carries hex(target) (spec §1), so
// /skipped can show and link the table instead of only the hex. Display only.
import { unhex } from "@/lib/schema/keys";

/** The table a skipped key names: its first segment after the family that decodes as hex. */
export function tableOfSkippedKey(key: string, family: string): string | null {
  const segments = key.split("/");
  const at = segments.indexOf(family);
  for (const segment of at >= 0 ? segments.slice(at + 1) : []) {
    if (segment.length < 2 || !/^[0-9a-f]+$/.test(segment)) continue;
    const target = unhex(segment);
    if (target !== null && target.length > 0) return target;
  }
  return null;
}
