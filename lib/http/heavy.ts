import "server-only";
// The wrapper's part of admitting heavy work (lib/live/admission.ts; console-api.md
// "Overload and memory"): which requests are heavy, and whose line each waits in.
import { createHash } from "node:crypto";
import { liveCache } from "@/lib/live/cache";

/** Set by the server (scripts/serve.mjs) from the connection, over anything the client sent. */
const CLIENT_ADDRESS_HEADER = "x-console-client";

/**
 * A request is heavy when its route says so (histories, diffs, previews) or when it pins a
 * revision this process does not hold in memory: answering it reads or plans the fleet as of
 * another moment. A pinned revision the live view or a held plan has is answered from memory.
 */
export function isHeavy(routeSaysHeavy: boolean | undefined, query: unknown): boolean {
  if (routeSaysHeavy !== undefined) return routeSaysHeavy;
  const revision = (query as { revision?: unknown } | null)?.revision;
  return typeof revision === "number" && liveCache().known(revision) === undefined;
}

/**
 * Whose line a request waits in: the credentials it carries (a bearer token, or its cookies:
 * the session), hashed, else the address it came from. A client can only move itself
 * between lines.
 */
function clientOf(request: Request): string {
  const credential = request.headers.get("authorization") ?? request.headers.get("cookie");
  if (credential) return `credential:${createHash("sha256").update(credential).digest("hex").slice(0, 16)}`;
  return `address:${request.headers.get(CLIENT_ADDRESS_HEADER) ?? "unknown"}`;
}

/** `work` once the heavy-work queue admits it, or `Overloaded` at once (503 overloaded, lib/schema/api/errors.ts). */
export function admitted<T>(request: Request, work: () => Promise<T>): Promise<T> {
  return liveCache().heavyWork.run(clientOf(request), work);
}
