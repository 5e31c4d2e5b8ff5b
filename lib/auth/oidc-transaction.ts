import "server-only";
import { EncryptJWT, jwtDecrypt } from "jose";
import type { AuthConfig } from "./config";
import { derivedKey } from "./session";

// One sign-in in progress (console-api.md "Single sign-on and team rights"): the PKCE
// verifier, state, nonce and where to land, between the login route and the provider's
// callback. Held by the browser in an httpOnly cookie, encrypted (A256GCM, jose) with a key
// derived from the session secret, so any replica can finish what another began and the
// verifier never shows. SameSite=Lax: the provider's redirect back is a cross-site
// navigation, which carries Lax cookies and not Strict ones. Ten minutes, then start again.

export const SIGN_IN_COOKIE = "console_oidc";
const SIGN_IN_TTL_SECS = 10 * 60;
const SIGN_IN_PATH = "/api/v1/session/oidc";

export interface SignInTransaction {
  verifier: string;
  state: string;
  nonce: string;
  returnTo: string;
}

function transactionKey(config: AuthConfig): Uint8Array {
  return derivedKey(
    config,
    ["console-oidc-sign-in-v1", config.oidc?.issuer ?? "", config.oidc?.clientId ?? ""].join("\n"),
  );
}

export async function sealTransaction(config: AuthConfig, tx: SignInTransaction, nowMs: number): Promise<string> {
  const iat = Math.floor(nowMs / 1000);
  return new EncryptJWT({ verifier: tx.verifier, state: tx.state, nonce: tx.nonce, return_to: tx.returnTo })
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setIssuedAt(iat)
    .setExpirationTime(iat + SIGN_IN_TTL_SECS)
    .encrypt(transactionKey(config));
}

/** The sign-in sealed in `jwe`, or null when it is missing, ended, or not this console's. */
export async function openTransaction(
  config: AuthConfig,
  jwe: string | null,
  nowMs: number,
): Promise<SignInTransaction | null> {
  if (!jwe || jwe.length > 4096) return null;
  try {
    const { payload: p } = await jwtDecrypt(jwe, transactionKey(config), { currentDate: new Date(nowMs) });
    const text = [p.verifier, p.state, p.nonce, p.return_to];
    if (!text.every((v): v is string => typeof v === "string")) return null;
    return { verifier: text[0], state: text[1], nonce: text[2], returnTo: text[3] };
  } catch {
    return null;
  }
}

const cookie = (value: string, maxAgeSecs: number, secure: boolean) =>
  [`${SIGN_IN_COOKIE}=${value}`, `Path=${SIGN_IN_PATH}`, "HttpOnly", "SameSite=Lax", `Max-Age=${maxAgeSecs}`]
    .concat(secure ? ["Secure"] : [])
    .join("; ");

export const transactionCookie = (jwe: string, secure: boolean) => cookie(jwe, SIGN_IN_TTL_SECS, secure);
export const clearedTransactionCookie = (secure: boolean) => cookie("", 0, secure);
