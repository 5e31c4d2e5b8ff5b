import { apiHandler, finishOidcSignIn, oidcCallbackQuerySchema } from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/session/oidc/callback: the provider's answer; checked, it sets the session cookie (CONSOLE_OIDC_REDIRECT_URL).
export const GET = apiHandler(
  { route: "/api/v1/session/oidc/callback", query: oidcCallbackQuerySchema, access: "public" },
  async ({ request, url }) => finishOidcSignIn(request, url),
);
