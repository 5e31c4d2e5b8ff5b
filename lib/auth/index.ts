import "server-only";

// lib/auth: tokens, session cookie, same-origin rule and `authorize` (console-api.md Security).
export { authorize, identify, signIn, cookieValue, roleOfToken, type Principal, type Role, type Need } from "./authorize";
export { AuthError, isAuthError, type AuthErrorCode } from "./errors";
export { readAuthConfig, isReadOnly, readsNeedToken, type AuthConfig } from "./config";
export { checkSameOrigin, isHttps, requestHost } from "./origin";
export { SESSION_COOKIE, SESSION_TTL_SECS, sessionCookie, clearedSessionCookie, signSession, verifySession } from "./session";
export { actorFor, matchToken, tokensEqual, parseTokenList } from "./tokens";
