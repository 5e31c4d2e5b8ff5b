import "server-only";
// GET /api/v1/session/oidc/login and /callback (console-api.md "Single sign-on and team
// rights"): the browser's two stops at the console on a sign-in through the provider. The
// login answers 302 to the provider with the sign-in sealed in a cookie; the callback checks
// the provider's answer (lib/auth/oidc.ts) and sets the session cookie. A failure is a typed
// error (`provider_unavailable`, `sign_in_failed`, …): a browser is sent to the sign-in page,
// which says it in words; an API client gets the JSON error with its status.
import { isHttps, readAuthConfig, sessionCookie } from "@/lib/auth";
import { cookieValue } from "@/lib/auth/authorize";
import { SignInError } from "@/lib/auth/errors";
import { beginSignIn, finishSignIn } from "@/lib/auth/oidc";
import { clearedTransactionCookie, SIGN_IN_COOKIE, transactionCookie } from "@/lib/auth/oidc-transaction";
import { signPersonSession } from "@/lib/auth/session";
import { ApiError } from "@/lib/schema/api/errors";
import { safeNext } from "./session";

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** A browser (which asks for HTML) lands on the sign-in page; anything else gets the error itself. */
function failure(request: Request, e: unknown, next: string): unknown {
  if (!(e instanceof SignInError)) return e;
  const headers: Record<string, string> = {
    "set-cookie": clearedTransactionCookie(isHttps(request.headers, request.url)),
  };
  const browser = request.headers.get("accept")?.includes("text/html") ?? false;
  if (browser) headers.location = `/signin?sso_error=${e.code}&next=${encodeURIComponent(next)}`;
  return new ApiError(browser ? 303 : e.status, e.code, e.message, {}, headers);
}

/** `?return_to=` (a path of this console, never another site) → 302 to the provider. */
export async function startOidcSignIn(request: Request, returnTo: string | undefined): Promise<Response> {
  const next = safeNext(returnTo);
  try {
    const { location, transaction } = await beginSignIn(readAuthConfig(), next, Date.now());
    return new Response(null, {
      status: 302,
      headers: {
        location,
        "cache-control": "no-store",
        "set-cookie": transactionCookie(transaction, isHttps(request.headers, request.url)),
      },
    });
  } catch (e) {
    throw failure(request, e, next);
  }
}

/**
 * The provider's answer → the session cookie, then on to where the person asked to go. The
 * move is a same-origin page's own refresh, not a redirect: this request is the end of a
 * cross-site chain (provider → console), and a browser keeps SameSite=Strict cookies (the
 * session's) off every hop of such a chain, so a redirect would land signed out.
 */
export async function finishOidcSignIn(request: Request, url: URL): Promise<Response> {
  const config = readAuthConfig();
  const secure = isHttps(request.headers, request.url);
  try {
    const nowMs = Date.now();
    const sealed = cookieValue(request.headers.get("cookie"), SIGN_IN_COOKIE);
    const { person, returnTo } = await finishSignIn(config, url.searchParams, sealed, nowMs);
    const jwt = await signPersonSession(config, person, nowMs);
    const href = escapeHtml(returnTo);
    const headers = new Headers({ "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    headers.append("set-cookie", sessionCookie(jwt, secure));
    headers.append("set-cookie", clearedTransactionCookie(secure));
    return new Response(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${href}">` +
        `<link rel="icon" href="/favicon.svg">` +
        `<title>Signed in · Scheduler Console</title></head><body><p>Signed in as ${escapeHtml(person.actor)}. ` +
        `<a href="${href}">Continue</a></p></body></html>`,
      { status: 200, headers },
    );
  } catch (e) {
    throw failure(request, e, "/policies");
  }
}
