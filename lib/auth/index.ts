import "server-only";

// lib/auth: tokens, session cookie, same-origin rule and `authorize` (console-api.md Security).
export { authorize, identify, signIn, type Principal } from "./authorize";
export { isAuthError } from "./errors";
export { readAuthConfig, isReadOnly, readsNeedToken } from "./config";
export { checkSameOrigin, isHttps } from "./origin";
export { sessionCookie, clearedSessionCookie } from "./session";
