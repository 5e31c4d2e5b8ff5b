import { apiHandler } from "@/lib/http/handler";
import { startOidcSignIn } from "@/lib/http/oidc-session";
import { oidcLoginQuerySchema } from "@/lib/schema/api/session";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/session/oidc/login?return_to=: 302 to the OpenID Connect provider (a path of this console to land on after).
export const GET = apiHandler(
  { route: "/api/v1/session/oidc/login", query: oidcLoginQuerySchema, access: "public" },
  async ({ request, query }) => startOidcSignIn(request, query.return_to),
);
