import { describe, expect, it } from "vitest";
import { ConfigError } from "./config-error";
import { loadEnv } from "./env";
import { loadSsoEnv } from "./sso-env";

const OIDC = {
  CONSOLE_OIDC_ISSUER: "https://id.example.com/realms/ops",
  CONSOLE_OIDC_CLIENT_ID: "scheduler-console",
  CONSOLE_OIDC_CLIENT_SECRET: "s3cret-client-secret",
  CONSOLE_OIDC_REDIRECT_URL: "https://console.example.com/api/v1/session/oidc/callback",
};

const fails = (env: Record<string, string>) => {
  try {
    loadEnv(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as ConfigError).message;
  }
  throw new Error("expected a ConfigError");
};

describe("CONSOLE_OIDC_* (console-api.md: all or none)", () => {
  it("none: no single sign-on, the demo's token sign-in as before", () => {
    expect(loadSsoEnv({})).toEqual({ oidc: null, rules: null });
    expect(loadSsoEnv({ CONSOLE_OIDC_ISSUER: " " }).oidc).toBeNull();
  });

  it("all four: the provider, trimmed", () => {
    expect(loadSsoEnv({ ...OIDC, CONSOLE_OIDC_CLIENT_ID: " scheduler-console " }).oidc).toEqual({
      issuer: OIDC.CONSOLE_OIDC_ISSUER,
      clientId: "scheduler-console",
      clientSecret: OIDC.CONSOLE_OIDC_CLIENT_SECRET,
      redirectUrl: OIDC.CONSOLE_OIDC_REDIRECT_URL,
    });
    // a provider on this machine (a test or a local Keycloak) may be plain http
    const local = {
      ...OIDC,
      CONSOLE_OIDC_ISSUER: "http://127.0.0.2:8080",
      CONSOLE_OIDC_REDIRECT_URL: "http://localhost:3000/api/v1/session/oidc/callback",
    };
    expect(loadSsoEnv(local).oidc?.issuer).toBe("http://127.0.0.2:8080");
  });

  it("some but not all: one line naming the first missing variable", () => {
    const { CONSOLE_OIDC_CLIENT_SECRET: _omitted, ...three } = OIDC;
    expect(fails(three)).toBe(
      "invalid configuration: CONSOLE_OIDC_CLIENT_SECRET must be set together with CONSOLE_OIDC_ISSUER, CONSOLE_OIDC_CLIENT_ID, CONSOLE_OIDC_REDIRECT_URL (all four CONSOLE_OIDC_* or none)",
    );
    expect(fails({ CONSOLE_OIDC_ISSUER: OIDC.CONSOLE_OIDC_ISSUER })).toMatch(
      /^invalid configuration: CONSOLE_OIDC_CLIENT_ID must be set together with CONSOLE_OIDC_ISSUER /,
    );
  });

  it.each([
    [
      { CONSOLE_OIDC_ISSUER: "http://id.example.com" },
      'CONSOLE_OIDC_ISSUER must be an https:// URL (http:// only on a loopback host) (got "http://id.example.com")',
    ],
    [{ CONSOLE_OIDC_ISSUER: "id.example.com" }, 'CONSOLE_OIDC_ISSUER must be a URL (got "id.example.com")'],
    [
      { CONSOLE_OIDC_ISSUER: "https://id.example.com/?x=1" },
      'CONSOLE_OIDC_ISSUER must not carry a query or a fragment (got "https://id.example.com/?x=1")',
    ],
    [
      { CONSOLE_OIDC_REDIRECT_URL: "https://console.example.com/callback" },
      'CONSOLE_OIDC_REDIRECT_URL must end in the console\'s callback path /api/v1/session/oidc/callback (got "https://console.example.com/callback")',
    ],
  ])("%j is refused with one line naming it", (bad, line) => {
    expect(fails({ ...OIDC, ...bad })).toBe(`invalid configuration: ${line}`);
  });

  it("never echoes the client secret", () => {
    const message = fails({ ...OIDC, CONSOLE_OIDC_CLIENT_SECRET: "x".repeat(2000) });
    expect(message).toBe("invalid configuration: CONSOLE_OIDC_CLIENT_SECRET is longer than 1024 characters");
  });
});
