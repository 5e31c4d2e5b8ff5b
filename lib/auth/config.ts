import "server-only";
import { sessionSecretOf } from "@/lib/config/env";
import { parseTokenList } from "./tokens";

// console-api.md Configuration/Security: CONSOLE_ADMIN_TOKENS, CONSOLE_VIEWER_TOKENS
// (comma-separated); CONSOLE_SESSION_SECRET (optional) lets replicas share sessions.
export interface AuthConfig {
  adminTokens: string[];
  viewerTokens: string[];
  /** shared session secret; when unset each process draws its own random one */
  sessionSecret: string | null;
}

export function readAuthConfig(env: Record<string, string | undefined> = process.env): AuthConfig {
  return {
    adminTokens: parseTokenList(env.CONSOLE_ADMIN_TOKENS),
    viewerTokens: parseTokenList(env.CONSOLE_VIEWER_TOKENS),
    sessionSecret: sessionSecretOf(env),
  };
}

/** With no admin tokens the console is read-only (console-api.md Security). */
export function isReadOnly(config: AuthConfig): boolean {
  return config.adminTokens.length === 0;
}

/** Viewer tokens gate reads only when some are configured. */
export function readsNeedToken(config: AuthConfig): boolean {
  return config.viewerTokens.length > 0;
}
