// The reads asked most answered straight from the engine (lib/engine/direct.ts; issue 46):
// two real consoles on one etcd, one answering them directly (the default) and one through
// Next's routing (CONSOLE_DIRECT_READS=off). Every direct path, pinned (`?revision=&now_ms=`,
// so both plan the same moment) or live, answers the same status, the same bytes (but what
// is per process by design) and the same headers; errors, access checks, 304s and gzip
// included. Only the direct console counts direct reads, and paths that are not direct
// (another route, a trailing slash, a HEAD) still reach Next there.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Etcd3 } from "etcd3";
import { sharedEtcd } from "../../support/shared-etcd";
import { seedScenarios, INCIDENT } from "@/lib/sim";
import { startApp, type RunningApp } from "../../support/app";
import { testPrefix } from "../../support/prefix";
import { clientFor, metricSum, q, sameness } from "./helpers";

const P = testPrefix("direct");
const VIEWER = "direct-viewer-token";
const AUTH = { authorization: `Bearer ${VIEWER}` };
let client: Etcd3;
let direct: RunningApp;
let routed: RunningApp;
let pinned = 0;
let NOW = 0;

beforeAll(async () => {
  client = clientFor(sharedEtcd());
  NOW = Date.now();
  await seedScenarios(client, ["incidents"], { prefix: P, now: NOW, leaseTtlSec: 3600 });
  pinned = Number((await client.put(`${P}/console/direct-test-marker`).value("1").exec()).header.revision);
  const env = {
    ETCD_ENDPOINTS: sharedEtcd(),
    ETCD_PREFIX: P,
    CONSOLE_SHADOW_SAMPLER: "off",
    CONSOLE_VIEWER_TOKENS: VIEWER,
  };
  [direct, routed] = await Promise.all([startApp(env), startApp({ ...env, CONSOLE_DIRECT_READS: "off" })]);
}, 240_000);

afterAll(async () => {
  await Promise.all([direct?.stop(), routed?.stop()]);
  await client?.delete().prefix(P).exec();
  client?.close();
});

interface Answer {
  status: number;
  text: string;
  headers: Record<string, string>;
}

/** headers that say when or on which connection, not what */
const PER_RESPONSE = new Set([
  "date",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "x-request-id",
]);

async function ask(app: RunningApp, path: string, headers: Record<string, string> = AUTH, method = "GET") {
  const res = await fetch(`${app.url}${path}`, { method, headers, redirect: "manual" });
  const out: Answer = { status: res.status, text: await res.text(), headers: {} };
  res.headers.forEach((value, name) => {
    if (!PER_RESPONSE.has(name)) out.headers[name] = value;
  });
  return out;
}

/**
 * The ETag names the answer's bytes, listing name included: per process, as that name is. So
 * is a recent revision's time: each process's revision clock dates it from what it sampled.
 */
const comparable = (a: Answer) => {
  const { status, text } = sameness(a);
  return {
    status,
    text: text.replace(/"at_ms":\d+,("basis":"\w+"),"error_ms":\d+/g, "$1"),
    headers: { ...a.headers, etag: a.headers.etag ? "set" : "none" },
  };
};

const directReads = (app: RunningApp) => metricSum(app.url, "console_direct_reads_total");

describe("the reads asked most, answered directly", () => {
  it("answer every direct path as Next's routing does: status, bytes and headers", async () => {
    const at = { revision: pinned, now_ms: NOW };
    const paths = [
      `/api/v1/scheduler/demand${q({ ...at, limit: 5, sort: "target" })}`,
      `/api/v1/scheduler/demand${q({ ...at, target: INCIDENT.brokenStore })}`,
      `/api/v1/scheduler/demand${q({ ...at, target: "no-such-table" })}`,
      `/api/v1/scheduler/demand${q({ ...at, limit: "many" })}`,
      `/api/v1/scheduler/demand${q({ ...at, unknown_param: 1 })}`,
      `/api/v1/scheduler/executors${q(at)}`,
      `/api/v1/scheduler/shadow${q(at)}`,
      `/api/v1/scheduler/assignments${q(at)}`,
      `/api/v1/scheduler/failures${q(at)}`,
      `/api/v1/scheduler/skipped${q(at)}`,
      `/api/v1/scheduler/demand${q({ revision: 999_999_999 })}`,
    ];
    const before = await directReads(direct);
    const statuses = new Set<number>();
    for (const path of paths) {
      const [d, r] = await Promise.all([ask(direct, path), ask(routed, path)]);
      statuses.add(d.status);
      expect(comparable(d), path).toEqual(comparable(r));
      expect(d.headers["x-content-type-options"], path).toBe("nosniff");
      // compressed when asked: the same headers, and the same bytes once inflated
      const gz = { ...AUTH, "accept-encoding": "gzip" };
      const [dz, rz] = await Promise.all([ask(direct, path, gz), ask(routed, path, gz)]);
      expect(comparable(dz), `${path} (gzip)`).toEqual(comparable(rz));
    }
    expect([...statuses].sort()).toEqual([200, 400, 404]);
    // a diff's sides are dated by each process's revision clock, and its verdicts planned at
    // those moments (offload.test.ts holds its bytes across consoles that date alike): here the
    // same status, headers and fields
    const diff = `/api/v1/scheduler/diff${q({ from: Math.max(1, pinned - 5), to: pinned })}`;
    const [dd, rd] = await Promise.all([ask(direct, diff), ask(routed, diff)]);
    expect(dd.status, dd.text).toBe(200);
    expect({ ...comparable(dd), text: undefined }).toEqual({ ...comparable(rd), text: undefined });
    expect(Object.keys(JSON.parse(dd.text) as object)).toEqual(Object.keys(JSON.parse(rd.text) as object));
    expect((await directReads(direct)) - before).toBe(paths.length * 2 + 1);
    expect(await directReads(routed)).toBe(0);
  }, 120_000);

  it("check access, revalidate to 304 and answer health the same way", async () => {
    const path = `/api/v1/scheduler/executors${q({ revision: pinned, now_ms: NOW })}`;
    const [d, r] = await Promise.all([ask(direct, path, {}), ask(routed, path, {})]);
    expect(d.status).toBe(401);
    expect(comparable(d)).toEqual(comparable(r));
    for (const app of [direct, routed]) {
      const first = await ask(app, path);
      expect(first.status).toBe(200);
      const again = await ask(app, path, { ...AUTH, "if-none-match": first.headers.etag! });
      expect(again.status).toBe(304);
      expect(again.text).toBe("");
    }
    const [dh, rh] = await Promise.all([ask(direct, "/api/v1/health", {}), ask(routed, "/api/v1/health", {})]);
    expect(dh.status).toBe(200);
    expect(dh.status).toBe(rh.status);
    expect(dh.headers).toEqual(rh.headers);
    expect(Object.keys(JSON.parse(dh.text) as object).sort()).toEqual(
      Object.keys(JSON.parse(rh.text) as object).sort(),
    );
  });

  it("leave every other request to Next: other routes, a trailing slash, HEAD", async () => {
    const before = await directReads(direct);
    const others: [string, string][] = [
      ["GET", "/api/v1/policies"],
      ["GET", "/api/v1/scheduler/executors/"],
      ["HEAD", "/api/v1/scheduler/executors"],
      ["GET", "/api/v1/no-such-route"],
    ];
    for (const [method, path] of others) {
      const [d, r] = await Promise.all([ask(direct, path, AUTH, method), ask(routed, path, AUTH, method)]);
      expect(d.status, `${method} ${path}`).toBe(r.status);
    }
    expect(await directReads(direct)).toBe(before);
  });
});
