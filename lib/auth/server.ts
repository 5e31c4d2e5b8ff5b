import "server-only";
import { headers } from "next/headers";
import type { SessionResponse } from "@/lib/schema/api/session";
import { readAuthConfig } from "./config";
import { sessionAnswer } from "./session-answer";

// For server components: who is looking at this page, and what the UI may offer them. The
// same answer as GET /api/v1/session (./session-answer.ts), so a page offers exactly what
// the API would accept.
export interface Viewer {
  principal: { actor: string; role: SessionResponse["role"] };
  /** edit controls are rendered only when true (absent otherwise, never disabled): for `target` when given */
  canWrite: boolean;
  readOnly: boolean;
  readsNeedToken: boolean;
  session: SessionResponse;
}

export async function currentViewer(target?: string): Promise<Viewer> {
  const session = await sessionAnswer(await headers(), readAuthConfig(), Date.now(), target);
  return {
    principal: { actor: session.actor, role: session.role },
    canWrite: session.target ? session.target.can_write : session.can_write,
    readOnly: session.read_only,
    readsNeedToken: session.reads_need_token,
    session,
  };
}
