import "server-only";
// /api/v1/session (console-api.md Security): who is signed in, and sign-in / sign-out with
// the httpOnly session cookie. Same-origin is the wrapper's rule for every POST/DELETE.
import { clearedSessionCookie, isHttps, readAuthConfig, sessionAnswer, sessionCookie, signIn } from "@/lib/auth";
import { signInBodySchema, type SessionResponse } from "@/lib/schema/api/session";
import { ApiError } from "@/lib/schema/api/errors";
import { json } from "./handler";

/** Who this request is signed in as, with their rights (and, with `target`, their right on it). */
export async function whoAmI(request: Request, target?: string): Promise<SessionResponse> {
  return sessionAnswer(request.headers, readAuthConfig(), Date.now(), target);
}

/** A local path to return to after sign-in (never another site: no `//`, no scheme). */
export function safeNext(next: unknown): string {
  return typeof next === "string" && /^\/(?![/\\])[^\s]*$/.test(next) ? next : "/policies";
}

function redirect(location: string, cookie?: string): Response {
  const headers = new Headers({ location, "cache-control": "no-store" });
  if (cookie) headers.append("set-cookie", cookie);
  return new Response(null, { status: 303, headers });
}

/** Sign in with `{token, next?}` or sign out with `{action: "signout"}`; a form gets redirects, JSON gets JSON. */
export async function signInOrOut(request: Request, body: unknown, form: boolean): Promise<Response> {
  const parsed = signInBodySchema.safeParse(body);
  if (!parsed.success)
    throw new ApiError(
      400,
      "invalid_body",
      'Send a form or JSON {token, next?} (or {action: "signout"}) of at most 4 KiB.',
    );
  const fields = parsed.data;
  const secure = isHttps(request.headers, request.url);
  if (fields.action === "signout") {
    const cleared = clearedSessionCookie(secure);
    return form
      ? redirect("/signin?signed_out=1", cleared)
      : json({ signed_out: true }, { headers: { "set-cookie": cleared } });
  }
  const signed = fields.token ? await signIn(readAuthConfig(), fields.token, Date.now()) : null;
  if (!signed) {
    if (form) return redirect(`/signin?error=1&next=${encodeURIComponent(safeNext(fields.next))}`);
    throw new ApiError(401, "unauthorized", "The token matches no configured token.");
  }
  const cookie = sessionCookie(signed.jwt, secure);
  if (form) return redirect(safeNext(fields.next), cookie);
  return json({ actor: signed.principal.actor, role: signed.principal.role }, { headers: { "set-cookie": cookie } });
}

export function signOut(request: Request): Response {
  return json(
    { signed_out: true },
    { headers: { "set-cookie": clearedSessionCookie(isHttps(request.headers, request.url)) } },
  );
}
