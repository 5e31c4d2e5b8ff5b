import "server-only";
// `?min_revision=R` (read-your-writes, console-api.md "Conventions"): taken out of the query
// before the route parses it (the route's answer never depends on it), then the live read
// runs once the live view holds R (lib/live/read-floor.ts: woken by the watch, no polling),
// or after MIN_REVISION_WAIT_MS with what the process has. `X-Min-Revision` says which:
// `reached` or `timed_out`. Only reads at one revision wait (GETs whose query takes
// `?revision`, as the OpenAPI document lists them); a pinned one (`?revision=`) is the past
// on purpose, and other answers (health, a revision's time) are not held to it.
import { z } from "zod";
import { readAtLeast } from "@/lib/live/read-floor";
import { minRevisionQuerySchema } from "@/lib/schema/api/common";

export const MIN_REVISION_HEADER = "x-min-revision";

export type MinRevision = { ok: true; revision: number | null } | { ok: false; error: z.ZodError };

/** Reads and removes `min_revision` from `url` (the wrapper's own copy of the request URL). */
export function takeMinRevision(url: URL): MinRevision {
  const given = url.searchParams.getAll("min_revision");
  if (given.length === 0) return { ok: true, revision: null };
  url.searchParams.delete("min_revision");
  const parsed = minRevisionQuerySchema.safeParse({ min_revision: given.length > 1 ? given : given[0] });
  if (!parsed.success) return { ok: false, error: parsed.error };
  return { ok: true, revision: parsed.data.min_revision ?? null };
}

const revisionReads = new WeakMap<z.ZodType, boolean>();

/** Whether a route's query schema takes `?revision` (a read at one revision); worked out once per schema. */
export function takesRevision(query: z.ZodType): boolean {
  let takes = revisionReads.get(query);
  if (takes === undefined) {
    const json = z.toJSONSchema(query, { io: "input", unrepresentable: "any" }) as { properties?: object };
    revisionReads.set(query, (takes = Object.hasOwn(json.properties ?? {}, "revision")));
  }
  return takes;
}

/** Runs the read under the floor when it applies (a live GET of a read at one revision); the header to send, or null. */
export async function withMinRevision<T>(
  revision: number | null,
  request: Request,
  url: URL,
  query: z.ZodType,
  read: () => Promise<T>,
): Promise<{ value: T; header: string | null }> {
  const live = (request.method === "GET" || request.method === "HEAD") && !url.searchParams.has("revision");
  if (revision === null || !live || !takesRevision(query)) return { value: await read(), header: null };
  const { reached, value } = await readAtLeast(revision, read);
  return { value, header: reached ? "reached" : "timed_out" };
}
