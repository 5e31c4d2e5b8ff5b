import "server-only";

// Who sent a request (console-api.md Security; "Single sign-on and team rights").
type Role = "admin" | "viewer" | "anonymous";

export interface Principal {
  /** the audit's actor: a token's name (or `admin:<12 hex>`), or a person's email (else the ID token's sub) */
  actor: string;
  role: Role;
  /** present for a person signed in through the OpenID Connect provider: the ID token's groups the rules name */
  person?: { groups: readonly string[] };
}

export const ANONYMOUS: Principal = { actor: "anonymous", role: "anonymous" };
