import "server-only";
// Sign-in through an OpenID Connect provider (console-api.md "Single sign-on and team
// rights"): the authorization code flow with PKCE, by openid-client. `beginSignIn` asks the
// provider where to send the browser and seals the verifier, state and nonce for the
// callback (./oidc-transaction.ts); `finishSignIn` checks the provider's answer against them
// (state, PKCE at the token endpoint, nonce and the ID token's signature) and names the
// person: the ID token's `email`, else its `sub`, and its `groups`. Every failure is a
// SignInError with a stable code; a provider that does not answer is `provider_unavailable`.
import * as oidc from "openid-client";
import type { OidcEnv } from "@/lib/config/sso-env";
import { personRole } from "./authorize";
import type { AuthConfig } from "./config";
import { SignInError } from "./errors";
import { openTransaction, sealTransaction } from "./oidc-transaction";

/** How long one request to the provider may take before the sign-in says it is unavailable. */
const PROVIDER_TIMEOUT_SECS = 5;
/** What the console asks for; a scope the provider does not list is left out (some refuse unknown ones). */
const WANTED_SCOPES = ["openid", "email", "profile", "groups"];

/** An answer from the provider's side that means "not reachable now", by the error's code (never its text). */
const UNAVAILABLE_CODES = new Set([
  "OAUTH_TIMEOUT",
  "OAUTH_ABORT",
  "OAUTH_RESPONSE_IS_NOT_CONFORM",
  "OAUTH_RESPONSE_IS_NOT_JSON",
]);

/** fetch's own failure (a refused connection, a reset, an unknown host) carries the system's code on its cause. */
function networkCode(e: TypeError): string | null {
  const cause = (e as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === "string" ? cause.code : null;
}

/** openid-client's and fetch's failures → a SignInError; anything else is a bug and is rethrown. */
function signInErrorOf(e: unknown, step: string): SignInError {
  if (e instanceof SignInError) return e;
  if (e instanceof oidc.AuthorizationResponseError)
    return new SignInError(
      "sign_in_refused",
      `The provider refused: ${e.error}${e.error_description ? ` (${e.error_description})` : ""}.`,
    );
  if (e instanceof oidc.ResponseBodyError) {
    if (e.status >= 500)
      return new SignInError("provider_unavailable", `${step}: the provider answered ${e.status} ${e.error}.`);
    return new SignInError("sign_in_failed", `${step}: the provider answered ${e.status} ${e.error}.`);
  }
  if (e instanceof oidc.ClientError) {
    const code = e.code ?? "";
    if (UNAVAILABLE_CODES.has(code)) return new SignInError("provider_unavailable", `${step}: ${e.message} (${code}).`);
    return new SignInError("sign_in_failed", `${step}: ${e.message} (${code}).`);
  }
  // fetch itself: a refused connection, a reset, an unknown host (the code is on the cause)
  if (e instanceof TypeError && networkCode(e) !== null)
    return new SignInError("provider_unavailable", `${step}: the provider did not answer (${networkCode(e)}).`);
  throw e;
}

/** The provider's metadata, asked afresh on each sign-in: a provider that is down is found before the browser goes there. */
async function providerConfiguration(env: OidcEnv): Promise<oidc.Configuration> {
  const insecure = env.issuer.startsWith("http:"); // a loopback provider (lib/config/sso-env.ts allows no other http)
  try {
    const found = await oidc.discovery(new URL(env.issuer), env.clientId, undefined, undefined, {
      timeout: PROVIDER_TIMEOUT_SECS,
      execute: insecure ? [oidc.allowInsecureRequests] : [],
    });
    const server = found.serverMetadata();
    // the provider's own choice of client authentication: basic (OAuth's default) when it lists it
    const methods = server.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
    const auth = methods.includes("client_secret_basic")
      ? oidc.ClientSecretBasic(env.clientSecret)
      : oidc.ClientSecretPost(env.clientSecret);
    const config = new oidc.Configuration(server, env.clientId, env.clientSecret, auth);
    config.timeout = PROVIDER_TIMEOUT_SECS;
    if (insecure) oidc.allowInsecureRequests(config);
    oidc.enableNonRepudiationChecks(config); // the ID token's signature is checked against the provider's keys too
    return config;
  } catch (e) {
    throw signInErrorOf(e, "discovery");
  }
}

function requireOidc(config: AuthConfig): OidcEnv {
  if (!config.oidc) throw new SignInError("sso_not_configured", "CONSOLE_OIDC_* is not configured.");
  return config.oidc;
}

/** Where to send the browser, and the sealed sign-in to keep in its cookie until the callback. */
export async function beginSignIn(
  config: AuthConfig,
  returnTo: string,
  nowMs: number,
): Promise<{ location: string; transaction: string }> {
  const env = requireOidc(config);
  const provider = await providerConfiguration(env);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const listed = provider.serverMetadata().scopes_supported;
  const scope = WANTED_SCOPES.filter((s) => s === "openid" || (listed ? listed.includes(s) : s !== "groups"));
  const location = oidc.buildAuthorizationUrl(provider, {
    redirect_uri: env.redirectUrl,
    scope: scope.join(" "),
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    nonce,
  });
  const transaction = await sealTransaction(config, { verifier, state, nonce, returnTo }, nowMs);
  return { location: location.href, transaction };
}

/** The person the provider vouched for: the audit's actor and the groups the rules name. */
export interface SignedInPerson {
  actor: string;
  groups: string[];
}

/** The ID token's `email` (unless the provider says it is unverified), else its `sub`. */
function actorOf(claims: oidc.IDToken): string {
  const email = claims.email;
  if (typeof email === "string" && email.length > 0 && claims.email_verified !== false) return email.toLowerCase();
  return claims.sub;
}

/**
 * Only the groups some rule names go into the session cookie (a person may belong to
 * hundreds; a cookie holds 4 KiB). Rules are read at start-up, so these are the ones that matter.
 */
function groupsOf(config: AuthConfig, claims: oidc.IDToken): string[] {
  const all = Array.isArray(claims.groups) ? claims.groups.filter((g): g is string => typeof g === "string") : [];
  const named = new Set((config.rules ?? []).flatMap((r) => (r.group === null ? [] : [r.group])));
  return [...new Set(all.filter((g) => named.has(g)))].sort();
}

/**
 * The provider's answer at the callback (`query`: the callback URL's search), checked against
 * the sign-in sealed in `transactionCookie`: the person, and where they asked to land.
 */
export async function finishSignIn(
  config: AuthConfig,
  query: URLSearchParams,
  transactionCookie: string | null,
  nowMs: number,
): Promise<{ person: SignedInPerson; returnTo: string }> {
  const env = requireOidc(config);
  const tx = await openTransaction(config, transactionCookie, nowMs);
  if (!tx)
    throw new SignInError("sign_in_expired", "No sign-in is in progress in this browser (or it took over 10 minutes).");
  const provider = await providerConfiguration(env);
  // the URL the provider redirected to, as configured (not as a proxy in front may have rewritten the host)
  const callback = new URL(env.redirectUrl);
  callback.search = query.toString();
  let claims: oidc.IDToken | undefined;
  try {
    const tokens = await oidc.authorizationCodeGrant(provider, callback, {
      pkceCodeVerifier: tx.verifier,
      expectedState: tx.state,
      expectedNonce: tx.nonce,
      idTokenExpected: true,
    });
    claims = tokens.claims();
  } catch (e) {
    throw signInErrorOf(e, "token");
  }
  if (!claims) throw new SignInError("sign_in_failed", "The provider's answer held no ID token.");
  const person = { actor: actorOf(claims), groups: groupsOf(config, claims) };
  if (personRole(config, person.actor, person.groups) === null)
    throw new SignInError("no_rule", `No rule of CONSOLE_RBAC_FILE names ${person.actor} or their groups.`);
  return { person, returnTo: tx.returnTo };
}
