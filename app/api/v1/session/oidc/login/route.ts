import { apiHandler, startOidcSignIn, oidcLoginQuerySchema } from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/session/oidc/login?return_to=: 302 to the OpenID Connect provider (a path of this console to land on after).
export const GET = apiHandler(
  { route: "/api/v1/session/oidc/login", query: oidcLoginQuerySchema, access: "public" },
  async ({ request, query }) => startOidcSignIn(request, query.return_to),
);
