import "server-only";
import { authorize } from "./authorize";
import { isAuthError } from "./errors";

/**
 * The read check for lib/http's wrapper (`setReadAuthorizer(readGate)`): null when the
 * request may read, else the 401 JSON Response (console-api.md Security: reads are open,
 * or need a viewer/admin credential when CONSOLE_VIEWER_TOKENS is set).
 */
export async function readGate(request: Request): Promise<Response | null> {
  try {
    await authorize(request, "read");
    return null;
  } catch (e) {
    if (!isAuthError(e)) throw e;
    return new Response(JSON.stringify(e.body()), {
      status: e.status,
      headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
    });
  }
}
