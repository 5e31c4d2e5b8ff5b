import "server-only";
import { headers } from "next/headers";
import { identify, type Principal } from "./authorize";
import { isReadOnly, readAuthConfig, readsNeedToken } from "./config";
import { isAuthError } from "./errors";

// For server components: who is looking at this page, and what the UI may offer them.
export interface Viewer {
  principal: Principal;
  /** edit controls are rendered only when true (absent otherwise, never disabled) */
  canWrite: boolean;
  readOnly: boolean;
  readsNeedToken: boolean;
}

export async function currentViewer(): Promise<Viewer> {
  const config = readAuthConfig();
  let principal: Principal = { actor: "anonymous", role: "anonymous" };
  try {
    principal = await identify(await headers(), config, Date.now());
  } catch (e) {
    if (!isAuthError(e)) throw e;
  }
  return {
    principal,
    canWrite: principal.role === "admin" && !isReadOnly(config),
    readOnly: isReadOnly(config),
    readsNeedToken: readsNeedToken(config),
  };
}
