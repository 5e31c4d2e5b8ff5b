import "server-only";
import type { SessionResponse } from "@/lib/schema/api/session";
import { readAuthConfig } from "./config";
import { sessionAnswer } from "./session-answer";

// For server components: who is looking at this page, and what the UI may offer them. The
// same answer as GET /api/v1/session (./session-answer.ts), so a page offers exactly what
// the API would accept. The page passes its request's headers (app/viewer.ts reads them).
export interface Viewer {
  principal: { actor: string; role: SessionResponse["role"] };
  /** edit controls are rendered only when true (absent otherwise, never disabled): for `target` when given */
  canWrite: boolean;
  readOnly: boolean;
  readsNeedToken: boolean;
  session: SessionResponse;
}

/** The viewer of a page whose request carried `headers` (for `target`, when the page is one table's). */
export async function viewerOf(headers: Headers, target?: string): Promise<Viewer> {
  const session = await sessionAnswer(headers, readAuthConfig(), Date.now(), target);
  return {
    principal: { actor: session.actor, role: session.role },
    canWrite: session.target ? session.target.can_write : session.can_write,
    readOnly: session.read_only,
    readsNeedToken: session.reads_need_token,
    session,
  };
}
