// Security (console-api.md "Security"), against a real `next start` and an etcd with auth enabled
// (root user + a `console` user whose role is limited to the console's prefix, the setup
// docs/operations.md describes):
// * the policy endpoints refuse cross-site requests (403), bodies over 64 KiB (413) and
//   non-JSON content types (415), writing nothing;
// * HTML pages send a strict nonce CSP (every script carries the nonce), frame-ancestors
//   'none', X-Content-Type-Options: nosniff;
// * the etcd password, the admin token and the session secret never appear in any response
//   body or header, page, the client bundle (.next/static) or a server log line.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type RunningApp } from "../../support/app";
import { startEtcd, type EtcdCluster } from "../../support/etcd";
import { EtcdHttp } from "../../support/etcd-http";
import { demandEventPuts, heartbeatPut } from "../../support/fleet-records";

const P = "/rel-security/lance-context/master";
const ETCD_PASSWORD = `etcd-pw-${randomBytes(12).toString("hex")}`;
const ROOT_PASSWORD = `root-pw-${randomBytes(12).toString("hex")}`;
const ADMIN_TOKEN = `adm-${randomBytes(16).toString("hex")}`;
const SESSION_SECRET = `sess-${randomBytes(24).toString("hex")}`;
const SECRETS = { ETCD_PASSWORD, ROOT_PASSWORD, ADMIN_TOKEN, SESSION_SECRET };
const TARGET = "secure/table-1";
const POLICY_PATH = `/api/v1/policies/${encodeURIComponent(TARGET)}`;

let cluster: EtcdCluster;
let app: RunningApp;
let etcd: EtcdHttp;
/** every response seen: status line, headers and body */
const seen: string[] = [];

async function request(
  pathname: string,
  init: RequestInit & { duplex?: "half" } = {},
): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(`${app.url}${pathname}`, {
    redirect: "manual",
    signal: AbortSignal.timeout(30_000),
    ...init,
  });
  const text = await res.text();
  seen.push(
    `${init.method ?? "GET"} ${pathname} ${res.status}\n${[...res.headers].map(([k, v]) => `${k}: ${v}`).join("\n")}\n\n${text}`,
  );
  return { status: res.status, headers: res.headers, text };
}

// every write names its reason (console-api.md Additions: X-Change-Reason)
const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, "x-change-reason": "security test" };
const policyBody = (minGenerations: number) => JSON.stringify({ v: 1, merge: { min_generations: minGenerations } });

function etcdctl(...args: string[]): void {
  execFileSync("etcdctl", [`--endpoints=${cluster.endpoints}`, ...args], {
    env: { ...process.env, ETCDCTL_API: "3" },
    stdio: "pipe",
  });
}

beforeAll(async () => {
  cluster = await startEtcd({ size: 1 });
  etcdctl("user", "add", "root", `--new-user-password=${ROOT_PASSWORD}`);
  etcdctl("user", "add", "console", `--new-user-password=${ETCD_PASSWORD}`);
  etcdctl("role", "add", "console-rw");
  etcdctl("role", "grant-permission", "console-rw", "--prefix=true", "readwrite", `${P}/`);
  etcdctl("user", "grant-role", "console", "console-rw");
  etcdctl("auth", "enable");
  etcd = new EtcdHttp(cluster.members[0].clientUrl, { username: "root", password: ROOT_PASSWORD });
  await etcd.putMany([...demandEventPuts(P, [TARGET, "secure/table-2"], 2, 40, 9), heartbeatPut(P, "exec-secure")]);
  app = await startApp({
    ETCD_ENDPOINTS: cluster.endpoints,
    ETCD_PREFIX: P,
    ETCD_USERNAME: "console",
    ETCD_PASSWORD,
    CONSOLE_ADMIN_TOKENS: ADMIN_TOKEN,
    CONSOLE_SESSION_SECRET: SESSION_SECRET,
  });
});

afterAll(async () => {
  await app?.stop();
  await cluster?.stop();
});

describe("security", () => {
  it("reads work through an auth-enabled etcd with a prefix-limited user", async () => {
    const list = await request("/api/v1/scheduler/demand?limit=10&now_ms=1767225600000");
    const requestId = list.headers.get("x-request-id") ?? "-";
    const logged =
      app
        .logs()
        .split("\n")
        .find((l) => l.includes(requestId)) ?? "";
    expect(list.status, `${list.text.slice(0, 200)} — server log: ${logged.slice(0, 400)}`).toBe(200);
    expect(JSON.parse(list.text).total_tables).toBe(2);
    const health = await request("/api/v1/health");
    expect(health.status, health.text.slice(0, 300)).toBe(200);
  });

  it("policy writes: an accepted admin write, then cross-site, oversize and non-JSON refusals write nothing", async () => {
    const created = await request(POLICY_PATH, {
      method: "PUT",
      headers: { ...admin, "content-type": "application/json", "if-match": "0" },
      body: policyBody(12),
    });
    expect(created.status, created.text.slice(0, 300)).toBe(200);
    const etag = created.headers.get("etag")!;
    expect(Number(etag)).toBeGreaterThan(0);
    const headers = { ...admin, "content-type": "application/json", "if-match": etag };

    const refusals: [string, RequestInit & { duplex?: "half" }, number][] = [
      [
        "Sec-Fetch-Site: cross-site",
        { headers: { ...headers, "sec-fetch-site": "cross-site" }, body: policyBody(13) },
        403,
      ],
      [
        "Origin of another site",
        { headers: { ...headers, origin: "https://evil.example" }, body: policyBody(13) },
        403,
      ],
      ["Origin null", { headers: { ...headers, origin: "null" }, body: policyBody(13) }, 403],
      ["65 KiB body", { headers, body: JSON.stringify({ v: 1, pad: "x".repeat(65 * 1024) }) }, 413],
      [
        "65 KiB streamed body without Content-Length",
        {
          headers,
          duplex: "half",
          body: new ReadableStream({
            start(c) {
              for (let i = 0; i < 65; i++)
                c.enqueue(new TextEncoder().encode(i === 0 ? `{"v":1,"pad":"${"x".repeat(1000)}` : "x".repeat(1024)));
              c.enqueue(new TextEncoder().encode('"}'));
              c.close();
            },
          }),
        },
        413,
      ],
      ["text/plain body", { headers: { ...headers, "content-type": "text/plain" }, body: policyBody(13) }, 415],
      ["form body", { headers: { ...headers, "content-type": "application/x-www-form-urlencoded" }, body: "v=1" }, 415],
      [
        "no content type",
        {
          headers: { authorization: headers.authorization, "x-change-reason": "security test", "if-match": etag },
          body: new Blob([policyBody(13)]),
        },
        415,
      ],
    ];
    for (const [what, init, status] of refusals) {
      const res = await request(POLICY_PATH, { method: "PUT", ...init });
      expect(res.status, `${what}: ${res.text.slice(0, 200)}`).toBe(status);
    }
    const preview = await request(`${POLICY_PATH}/preview`, {
      method: "POST",
      headers: { ...headers, "sec-fetch-site": "cross-site" },
      body: policyBody(14),
    });
    expect(preview.status).toBe(403); // a preview writes nothing, but costs two plans: refused cross-site like every non-GET

    // nothing was written: the stored document and its mod_revision are unchanged
    const after = await request(POLICY_PATH);
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).toBe(etag);
    expect(JSON.parse(after.text).stored.merge.min_generations).toBe(12);
    const audit = await request(`/api/v1/audit?target=${encodeURIComponent(TARGET)}`);
    expect(audit.status).toBe(200);
    expect(JSON.parse(audit.text).entries).toHaveLength(1);
  });

  it("HTML pages send a strict nonce CSP, frame-ancestors 'none' and nosniff", async () => {
    for (const page of [
      "/",
      "/tables",
      `/tables/${encodeURIComponent(TARGET)}`,
      "/executors",
      "/shadow",
      "/failures",
      "/skipped",
      "/policies",
      "/audit",
      "/signin",
    ]) {
      const res = await request(page);
      expect(res.status, page).toBe(200);
      const csp = res.headers.get("content-security-policy") ?? "";
      const directives = new Map(
        csp
          .split(";")
          .map((d) => d.trim().split(/\s+/))
          .map(([name, ...values]) => [name, values]),
      );
      expect(directives.get("frame-ancestors"), page).toEqual(["'none'"]);
      expect(directives.get("object-src"), page).toEqual(["'none'"]);
      expect(directives.get("default-src"), page).toEqual(["'self'"]);
      const scriptSrc = directives.get("script-src") ?? [];
      expect(scriptSrc, page).not.toContain("'unsafe-inline'");
      expect(scriptSrc, page).not.toContain("'unsafe-eval'");
      const nonce = scriptSrc.find((s) => s.startsWith("'nonce-"))?.slice(7, -1);
      expect(nonce, `${page}: a nonce in script-src`).toMatch(/^[A-Za-z0-9+/=]{16,}$/);
      expect(res.headers.get("x-content-type-options"), page).toBe("nosniff");
      // every script the page ships carries this request's nonce (else the browser blocks it)
      const scripts = res.text.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length, page).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag, page).toContain(`nonce="${nonce}"`);
    }
    const api = await request("/api/v1/health");
    expect(api.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("no secret appears in a response, a page, the client bundle or a log line", async () => {
    // more traffic that could echo credentials: sign-in, wrong tokens, bad queries, errors
    await request("/api/v1/session", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: ADMIN_TOKEN }),
    });
    await request("/api/v1/session", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: `${ADMIN_TOKEN}x` }),
    });
    await request(POLICY_PATH, {
      method: "PUT",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}x`, "content-type": "application/json", "if-match": "0" },
      body: policyBody(9),
    });
    await request(POLICY_PATH, {
      method: "PUT",
      headers: { ...admin, "content-type": "application/json", "if-match": "1" },
      body: policyBody(9),
    });
    await request(POLICY_PATH, {
      method: "PUT",
      headers: { ...admin, "content-type": "application/json", "if-match": "0" },
      body: '{"v":1,"merge":{"min_generations":0}}',
    });
    for (const p of [
      "/api/v1/scheduler/demand?limit=0",
      "/api/v1/scheduler/demand?revision=abc",
      "/api/v1/scheduler/executors",
      "/api/v1/scheduler/shadow",
      "/api/v1/scheduler/failures",
      "/api/v1/scheduler/skipped",
      "/api/v1/openapi.json",
      "/api/metrics",
      "/api/v1/policies/_default",
    ]) {
      await request(p);
    }
    expect(seen.length).toBeGreaterThan(30);

    const distDir = path.resolve(__dirname, "../../..", process.env.NEXT_DIST_DIR || ".next", "static");
    const bundle = listFiles(distDir)
      .map((f) => fs.readFileSync(f, "utf8"))
      .join("\n");
    expect(bundle.length).toBeGreaterThan(10_000);
    const logs = app.logs();
    expect(logs.length).toBeGreaterThan(0);
    for (const [name, secret] of Object.entries(SECRETS)) {
      expect(
        seen.filter((s) => s.includes(secret)).map((s) => s.split("\n")[0]),
        `${name} in a response`,
      ).toEqual([]);
      expect(bundle.includes(secret), `${name} in .next/static`).toBe(false);
      expect(logs.includes(secret), `${name} in the server log`).toBe(false);
    }
    // server-only code and configuration names never reach the browser bundle
    for (const marker of ["ETCD_PASSWORD", "CONSOLE_SESSION_SECRET", "GRPCUnavailableError", "etcdserver"]) {
      expect(bundle.includes(marker), `${marker} in .next/static`).toBe(false);
    }
  });
});

function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory()
        ? listFiles(path.join(dir, e.name))
        : /\.(js|css|json|html|txt|map)$/.test(e.name)
          ? [path.join(dir, e.name)]
          : [],
    );
}
