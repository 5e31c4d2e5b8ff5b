// A real OpenID Connect provider for the single sign-on tests (console-api.md "Single sign-on
// and team rights"): panva's oidc-provider on a loopback address of its own (127.0.0.2, so
// the console on 127.0.0.1 is another site, as a company's provider is), with one confidential
// client that must use PKCE, the people it is given (password, email, groups), an ID token that
// carries `email` and `groups`, and a login form of its own that checks the password. Consent
// is implied for the console (a first-party client), as a company's provider configures it.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { exportJWK, generateKeyPair } from "jose";
import Provider from "oidc-provider";

export interface OidcPerson {
  password: string;
  email: string;
  groups: string[];
}

export interface RunningProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** stop answering (the "provider is down" case); idempotent */
  stop(): Promise<void>;
}

const HOST = "127.0.0.2";

/**
 * A CONSOLE_RBAC_FILE in `dir` for two teams, each the admin of its own tables
 * (`orders/*`, `incident/*`), plus any `extra` rule lines; answers its path.
 */
export function writeTeamRules(dir: string, extra: string[] = []): string {
  const file = path.join(dir, "rbac.yaml");
  const rules = [
    '  - {group: team-orders, role: admin, targets: ["orders/*"]}',
    '  - {group: team-incident, role: admin, targets: ["incident/*"]}',
    ...extra,
  ];
  fs.writeFileSync(file, `rules:\n${rules.join("\n")}\n`);
  return file;
}
const SCOPES = "openid email profile groups";

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function loginPage(uid: string, problem: string | null): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in · Test identity provider</title></head>
<body><h1>Test identity provider</h1>${problem ? `<p role="alert">${escapeHtml(problem)}</p>` : ""}
<form method="post" action="/interaction/${escapeHtml(uid)}">
<label for="username">Username</label><input id="username" name="username" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" required>
<button type="submit">Sign in</button></form></body></html>`;
}

async function formOf(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

/**
 * Starts the provider for one client whose callback is `redirectUri`. `people` are by
 * username (the ID token's `sub`).
 */
export async function startOidcProvider(opts: {
  redirectUri: string;
  people: Record<string, OidcPerson>;
}): Promise<RunningProvider> {
  const clientId = "scheduler-console";
  const clientSecret = randomBytes(24).toString("hex");
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: "test-signing", alg: "RS256", use: "sig" };

  let handle: http.RequestListener = (_req, res) => res.writeHead(503).end();
  const server = http.createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, HOST, () => resolve());
  });
  const issuer = `http://${HOST}:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [opts.redirectUri],
        response_types: ["code"],
        grant_types: ["authorization_code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    pkce: { required: () => true },
    claims: { email: ["email", "email_verified"], groups: ["groups"], profile: ["name"] },
    scopes: ["openid", "email", "profile", "groups"],
    // the claims of the granted scopes go into the ID token itself, as the console reads them
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AuthorizationCode: 60, AccessToken: 600, IdToken: 600 },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => {
      const person = opts.people[sub];
      if (!person) return undefined;
      return {
        accountId: sub,
        claims: () => ({ sub, email: person.email, email_verified: true, groups: person.groups, name: sub }),
      };
    },
    // a first-party client: consent is implied (no consent screen)
    loadExistingGrant: async (ctx) => {
      const accountId = ctx.oidc.session?.accountId;
      if (!accountId || !ctx.oidc.client) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId });
      grant.addOIDCScope(SCOPES);
      await grant.save();
      return grant;
    },
  });

  const providerCallback = provider.callback();
  handle = (req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    if (url.pathname === "/favicon.ico") return void res.writeHead(204).end();
    const match = /^\/interaction\/([\w-]+)$/.exec(url.pathname);
    if (!match) return providerCallback(req, res);
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res);
        if (req.method !== "POST") {
          res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(loginPage(details.uid, null));
          return;
        }
        const form = await formOf(req);
        const username = form.get("username") ?? "";
        const person = opts.people[username];
        if (!person || person.password !== (form.get("password") ?? "")) {
          res
            .writeHead(200, { "content-type": "text/html; charset=utf-8" })
            .end(loginPage(details.uid, "Wrong username or password."));
          return;
        }
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: username } },
          { mergeWithLastSubmission: false },
        );
      } catch (e) {
        res.writeHead(400, { "content-type": "text/plain" }).end(`interaction failed: ${(e as Error).message}`);
      }
    })();
  };

  let stopped: Promise<void> | null = null;
  return {
    issuer,
    clientId,
    clientSecret,
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return stopped;
    },
  };
}
