// The effective policy and where each value comes from (builtin, fleet default, table).
import Link from "next/link";
import type { TableDetail } from "@/lib/client/api-types";

/** Nested policy documents as dotted paths (`merge.min_generations`), arrays kept whole. */
function flattenPolicy(doc: Record<string, unknown>, prefix = ""): [string, unknown][] {
  return Object.entries(doc).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return value && typeof value === "object" && !Array.isArray(value)
      ? flattenPolicy(value as Record<string, unknown>, path)
      : [[path, value] as [string, unknown]];
  });
}

/** Where a field's value comes from: `sources.fields[path]`, else the most specific layer that has it. */
function sourceOf(sources: Record<string, unknown>, path: string): string {
  const fields = sources.fields as Record<string, unknown> | undefined;
  const direct = fields?.[path] ?? sources[path];
  if (typeof direct === "string") return direct;
  for (const layer of ["table", "default", "builtin"]) if (sources[layer] === true) return layer;
  return "—";
}

export function PolicyPanel({ target, policy }: { target: string; policy: TableDetail["policy"] }) {
  const entries = flattenPolicy(policy.effective ?? {});
  return (
    <section className="panel" aria-label="effective policy">
      <h2>
        Effective policy · <Link href={`/policies/${encodeURIComponent(target)}`}>edit</Link>
      </h2>
      {entries.length === 0 ? (
        <p className="muted">No policy fields.</p>
      ) : (
        <table className="data">
          <thead>
            <tr>
              <th>field</th>
              <th>value</th>
              <th>from</th>
            </tr>
          </thead>
          <tbody>
            {entries.map(([field, value]) => {
              const source = sourceOf(policy.sources ?? {}, field);
              return (
                <tr key={field}>
                  <td className="mono">{field}</td>
                  <td className="mono">{Array.isArray(value) ? value.join(", ") : String(value)}</td>
                  <td className={source === "builtin" ? "muted" : undefined}>{source}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
