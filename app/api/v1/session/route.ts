import { z } from "zod";
import { apiHandler, json } from "@/lib/api/handler";
import {
  AuthError,
  checkSameOrigin,
  clearedSessionCookie,
  identify,
  isAuthError,
  isHttps,
  isReadOnly,
  readAuthConfig,
  readsNeedToken,
  sessionCookie,
  signIn,
} from "@/lib/auth";

export const dynamic = "force-dynamic";

const ROUTE = "/api/v1/session";
const noQuery = z.object({});
const MAX_SIGNIN_BYTES = 4096;

/** A local path to return to after sign-in (never another site: no `//`, no scheme). */
function safeNext(next: unknown): string {
  return typeof next === "string" && /^\/(?![/\\])[^\s]*$/.test(next) ? next : "/policies";
}

function redirect(location: string, cookie?: string): Response {
  const headers = new Headers({ location, "cache-control": "no-store" });
  if (cookie) headers.append("set-cookie", cookie);
  return new Response(null, { status: 303, headers });
}

/** The sign-in form (urlencoded) or an API client (JSON): `{token, next?, action?}`. */
async function readForm(request: Request): Promise<{ form: boolean; fields: Record<string, string> } | null> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  const text = await request.text();
  if (text.length > MAX_SIGNIN_BYTES) return null;
  if (type === "application/x-www-form-urlencoded") return { form: true, fields: Object.fromEntries(new URLSearchParams(text)) };
  if (type === "application/json") {
    try {
      const v: unknown = JSON.parse(text);
      if (v && typeof v === "object" && !Array.isArray(v)) {
        const fields = Object.fromEntries(Object.entries(v).filter(([, x]) => typeof x === "string")) as Record<string, string>;
        return { form: false, fields };
      }
    } catch {
      return null;
    }
  }
  return null;
}

// GET /api/v1/session: who this request is signed in as, and whether the console is read-only.
export const GET = apiHandler({ route: ROUTE, query: noQuery, access: "public" }, async ({ request }) => {
  const config = readAuthConfig();
  let principal;
  try {
    principal = await identify(request.headers, config, Date.now());
  } catch (e) {
    if (!isAuthError(e)) throw e;
    principal = { actor: "anonymous", role: "anonymous" as const };
  }
  return { actor: principal.actor, role: principal.role, can_write: principal.role === "admin" && !isReadOnly(config), read_only: isReadOnly(config), reads_need_token: readsNeedToken(config) };
});

// POST /api/v1/session: sign in with a token (sets the session cookie) or, with
// `action=signout`, sign out. Same-origin only, like every mutation.
export const POST = apiHandler({ route: ROUTE, query: noQuery, access: "public" }, async ({ request }) => {
  const origin = checkSameOrigin(request.headers, request.url);
  if (!origin.ok) {
    const e = new AuthError("cross_site", `Cross-site sign-in refused (${origin.reason}).`);
    return json(e.body(), { status: e.status });
  }
  const secure = isHttps(request.headers, request.url);
  const body = await readForm(request);
  if (!body) return json({ error: { code: "invalid_body", message: "Send a form or JSON {token} of at most 4 KiB." } }, { status: 400 });
  const { form, fields } = body;
  if (fields.action === "signout") {
    return form ? redirect("/signin?signed_out=1", clearedSessionCookie(secure)) : json({ signed_out: true }, { headers: { "set-cookie": clearedSessionCookie(secure) } });
  }
  const config = readAuthConfig();
  const signed = fields.token ? await signIn(config, fields.token, Date.now()) : null;
  if (!signed) {
    if (form) return redirect(`/signin?error=1&next=${encodeURIComponent(safeNext(fields.next))}`);
    return json({ error: { code: "unauthorized", message: "The token matches no configured token." } }, { status: 401 });
  }
  const cookie = sessionCookie(signed.jwt, secure);
  if (form) return redirect(safeNext(fields.next), cookie);
  return json({ actor: signed.principal.actor, role: signed.principal.role }, { headers: { "set-cookie": cookie } });
});

// DELETE /api/v1/session: sign out (clears the cookie).
export const DELETE = apiHandler({ route: ROUTE, query: noQuery, access: "public" }, async ({ request }) => {
  const origin = checkSameOrigin(request.headers, request.url);
  if (!origin.ok) {
    const e = new AuthError("cross_site", `Cross-site sign-out refused (${origin.reason}).`);
    return json(e.body(), { status: e.status });
  }
  return json({ signed_out: true }, { headers: { "set-cookie": clearedSessionCookie(isHttps(request.headers, request.url)) } });
});
