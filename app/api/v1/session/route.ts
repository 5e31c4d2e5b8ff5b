import {
  apiHandler,
  signInOrOut,
  signOut,
  whoAmI,
  SIGNIN_MAX_BYTES,
  sessionGetQuerySchema,
  sessionQuerySchema,
} from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const ROUTE = "/api/v1/session";

// GET /api/v1/session?target=: who this request is signed in as, their rights (on `target` too), and whether the console is read-only.
export const GET = apiHandler(
  { route: ROUTE, query: sessionGetQuerySchema, access: "public" },
  async ({ request, query }) => whoAmI(request, query.target),
);

// POST /api/v1/session: sign in with a token (sets the session cookie) or, with `action=signout`, sign out.
export const POST = apiHandler(
  { route: ROUTE, query: sessionQuerySchema, access: "public", body: { form: true, maxBytes: SIGNIN_MAX_BYTES } },
  async ({ request, body, bodyIsForm }) => signInOrOut(request, body, bodyIsForm),
);

// DELETE /api/v1/session: sign out (clears the cookie).
export const DELETE = apiHandler({ route: ROUTE, query: sessionQuerySchema, access: "public" }, async ({ request }) =>
  signOut(request),
);
