import "server-only";
// A server-rendered page's first reads (issue 23: "the chart drawn in Chromium ≤ 1 s"). A
// client page asks for its data once React has hydrated it — on a loaded machine most of a
// second after its HTML came — and draws only then. A server page that knows the live reads
// its client part makes first asks them of this server's own API while it renders (the same
// route, access check and answer: the incoming request's credentials go with it). A small
// answer seeds the page's query cache (`seeded`, through React Query's HydrationBoundary): the
// browser renders it at once and does not ask again until it is stale. A large one is drawn
// on the server instead (the table's 6 h history: app/(console)/tables/[target]). A read that
// fails, or a server that does not know its own address (`next dev`: scripts/serve.mjs sets
// it), gives nothing: the client part asks, as before.
import { dehydrate, QueryClient, type DehydratedState } from "@tanstack/react-query";
import { readUrl } from "@/lib/client/fetch-json";
import type { FirstRead } from "@/lib/client/resources/first-reads";

/** the incoming request's headers that carry its credentials (a viewer token, a session) */
const FORWARDED = ["authorization", "cookie"] as const;

/** The answer to `read` from this server's own API (scripts/serve.mjs sets CONSOLE_SELF_ORIGIN), or null. */
export async function readOnServer(read: FirstRead, incoming: Headers, timeoutMs = 30_000): Promise<unknown> {
  const origin = process.env.CONSOLE_SELF_ORIGIN;
  if (!origin) return null;
  const headers: Record<string, string> = { accept: "application/json" };
  for (const name of FORWARDED) {
    const value = incoming.get(name);
    if (value) headers[name] = value;
  }
  try {
    const res = await fetch(`${origin}${readUrl(read.path, read.params)}`, {
      headers,
      cache: "no-store",
      signal: AbortSignal.timeout(timeoutMs),
    });
    return res.status === 200 ? await res.json() : null;
  } catch {
    return null; // the client part asks, and says what went wrong
  }
}

/** The answers (null: none) as the query cache's state to seed the page with. */
export function seeded(answers: readonly { read: FirstRead; answer: unknown }[]): DehydratedState {
  const client = new QueryClient();
  for (const { read, answer } of answers) if (answer !== null) client.setQueryData(read.key, answer);
  return dehydrate(client);
}
