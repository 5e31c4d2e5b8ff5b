import "server-only";
// Access for every endpoint (console-api.md "Security"), decided here and nowhere else so
// no handler can forget it: reads are open, or need a viewer token when
// CONSOLE_VIEWER_TOKENS is set (lib/auth's readGate); writes need an admin (bearer token or
// session) and a same-origin request; with no admin tokens every write is refused. A write
// to one target needs rights that cover it ("Single sign-on and team rights": 403 forbidden).
import { authorizeSave, checkSameOrigin, isAuthError, type AllowingRule, type Principal } from "@/lib/auth";
import { readGate } from "@/lib/auth/read-gate";
import { lazily } from "@/lib/util/lazily";
import { ApiError } from "@/lib/schema/api/errors";

/** Answers null when the request may read, or the error Response to send instead. */
type ReadAuthorizer = (request: Request) => Promise<Response | null>;

type Slot = { authorize: ReadAuthorizer };

const slot = lazily<Slot>(() => ({ authorize: readGate }));

export function authorizeRead(request: Request): Promise<Response | null> {
  return slot().authorize(request);
}

/**
 * The admin sending this write to `target` (null: a write that is not one table's, which
 * needs `*`) and the rule that allows it, or an ApiError: 401 unauthorized, 403 forbidden
 * (not an admin, or not of this target) / cross_site / read_only.
 */
export async function authorizeAdmin(
  request: Request,
  target: string | null,
): Promise<{ principal: Principal; rule: AllowingRule }> {
  try {
    return await authorizeSave(request, target);
  } catch (e) {
    if (isAuthError(e)) throw new ApiError(e.status, e.code, e.message, e.details);
    throw e;
  }
}

/** Every request that is not a GET or HEAD changes something or costs a plan: same-origin only. */
export function requireSameOrigin(request: Request): void {
  if (request.method === "GET" || request.method === "HEAD") return;
  const origin = checkSameOrigin(request.headers, request.url);
  if (!origin.ok) throw new ApiError(403, "cross_site", `Cross-site request refused (${origin.reason}).`);
}
