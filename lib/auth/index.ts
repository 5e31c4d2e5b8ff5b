import "server-only";

// lib/auth: tokens, session cookie, same-origin rule, `authorize` and who may save what
// (console-api.md Security, "Single sign-on and team rights"). The provider's sign-in is ./oidc.ts.
export { authorizeSave, signIn, type Principal } from "./authorize";
export { isAuthError } from "./errors";
export { sessionAnswer } from "./session-answer";
export type { AllowingRule } from "./rights";
export { readAuthConfig } from "./config";
export { checkSameOrigin, isHttps } from "./origin";
export { sessionCookie, clearedSessionCookie } from "./session";
