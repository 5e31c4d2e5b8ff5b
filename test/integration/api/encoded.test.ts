// One serialization per (plan, query), against a real etcd and the console's server (Next's handler):
// strong ETag and 304, new bytes after a change, the cached answer byte-identical to one
// computed afresh (the server's caches emptied through its inspector), gzip made once per
// ETag that decodes to the same bytes, errors and writes never cached, and a listing's changes
// (`?since=`) that rebuild exactly the listing read afresh.
import http from "node:http";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import type { Etcd3 } from "etcd3";
import { applyChanges } from "@/lib/client/resources/demand";
import { seedScenarios, INCIDENT } from "@/lib/sim";
import { keys } from "@/lib/schema/keys";
import { demandChangesSchema, demandListSchema, type DemandList } from "@/lib/schema/api/demand";
import { startApp, type RunningApp } from "../../support/app";
import { evaluateInServer, inEngine, inGzipCache } from "../../support/inspector";
import { until } from "../../support/observe";
import { testPrefix } from "../../support/prefix";
import { clientFor, metricSum, okBody, q } from "./helpers";

const ADMIN = "admin-token-for-encoded-responses";
let client: Etcd3;
let app: RunningApp;
let prefix: string;
let NOW: number;
let pinned: number;

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** GET with exactly these headers and the bytes as they came over the wire (fetch would decode them). */
function raw(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${app.url}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

const CLEAR_CACHES = `(() => {
  ${inEngine("clearEncodedResponses()")};
  ${inEngine("forgetExactPlans()")};
  return true;
})()`;

const gzipCounts = async () =>
  (await evaluateInServer(
    app.inspectorUrl!,
    `({ hits: ${inGzipCache("hits")}, misses: ${inGzipCache("misses")} })`,
  )) as { hits: number; misses: number };

const hits = () => metricSum(app.url, "console_response_cache_total", { result: "hit" });
const misses = () => metricSum(app.url, "console_response_cache_total", { result: "miss" });

beforeAll(async () => {
  const endpoints = sharedEtcd();
  client = clientFor(endpoints);
  prefix = testPrefix("api-encoded");
  NOW = Date.now();
  await seedScenarios(client, ["incidents"], { prefix, now: NOW, leaseTtlSec: 3600 });
  // one more revision after the seed, so `pinned` is a past revision held unchanged
  pinned = Number((await client.put(`${prefix}/console/encoded-test-marker`).value("1").exec()).header.revision);
  await client.put(`${prefix}/console/encoded-test-marker`).value("2");
  // no sampler: nothing but the test writes, so answers stay put between requests; the pinned
  // reads are answered on the request thread, whose caches the inspector empties (the offload
  // worker's answers, cached there or not, are compared with these in offload.test.ts)
  app = await startApp(
    {
      ETCD_ENDPOINTS: endpoints,
      ETCD_PREFIX: prefix,
      CONSOLE_SHADOW_SAMPLER: "off",
      CONSOLE_ADMIN_TOKENS: ADMIN,
      CONSOLE_OFFLOAD: "thread",
    },
    { inspect: true },
  );
});

afterAll(async () => {
  await app?.stop();
  client?.close();
});

const pinnedReads = () => [
  `/api/v1/scheduler/demand${q({ revision: pinned, now_ms: NOW, include_idle: true, limit: 4 })}`,
  `/api/v1/scheduler/demand${q({ revision: pinned, now_ms: NOW, target: INCIDENT.brokenStore })}`,
  `/api/v1/scheduler/executors${q({ revision: pinned, now_ms: NOW })}`,
  `/api/v1/scheduler/shadow${q({ revision: pinned, now_ms: NOW })}`,
];

describe("cacheable reads", () => {
  it("carry a strong ETag and no-cache, and answer If-None-Match with 304 and no body", async () => {
    for (const path of pinnedReads()) {
      const first = await raw(path);
      expect(first.status, path).toBe(200);
      expect(first.headers["cache-control"], path).toBe("no-cache");
      expect(first.headers.vary, path).toMatch(/accept-encoding/i);
      const etag = first.headers.etag!;
      expect(etag, path).toMatch(/^"[\w-]+"$/); // strong: no W/
      const again = await raw(path, { "if-none-match": etag });
      expect(again.status, path).toBe(304);
      expect(again.body.length, path).toBe(0);
      expect(again.headers.etag, path).toBe(etag);
      expect(again.headers["cache-control"], path).toBe("no-cache");
      expect((await raw(path, { "if-none-match": '"not-this-one"' })).status, path).toBe(200);
    }
  });

  it("serve the cached bytes byte-identical to bytes computed afresh (caches emptied, plan made again)", async () => {
    for (const path of pinnedReads()) {
      const first = await raw(path);
      const hitsBefore = await hits();
      const cached = await raw(path);
      expect(await hits(), `${path} served from the byte cache`).toBeGreaterThan(hitsBefore);
      expect(await evaluateInServer(app.inspectorUrl!, CLEAR_CACHES)).toBe(true);
      const missesBefore = await misses();
      const fresh = await raw(path);
      expect(await misses(), `${path} encoded afresh`).toBeGreaterThan(missesBefore);
      expect(cached.body.equals(first.body), path).toBe(true);
      expect(fresh.body.equals(cached.body), `${path}: cached bytes = fresh bytes`).toBe(true);
      expect(fresh.headers.etag, path).toBe(cached.headers.etag);
    }
  });

  it("are gzipped once per content (scripts/serve.mjs) to the same bytes, repeats served from that gzip, and a gzipped copy revalidates", async () => {
    for (const path of pinnedReads()) {
      const identity = await raw(path);
      expect(identity.headers["content-encoding"], path).toBeUndefined();
      const before = await gzipCounts();
      const gz = await raw(path, { "accept-encoding": "gzip, deflate, br" });
      const repeat = await raw(path, { "accept-encoding": "gzip" });
      const after = await gzipCounts();
      expect(gz.headers["content-encoding"], path).toBe("gzip");
      expect(gunzipSync(gz.body).equals(identity.body), path).toBe(true);
      expect(gz.headers.etag, path).toBe(identity.headers.etag);
      expect(gz.headers.vary, path).toMatch(/accept-encoding/i);
      // the digest the answer tells the server stays inside the process
      for (const r of [identity, gz]) expect(r.headers["x-console-sha256"], path).toBeUndefined();
      expect(repeat.body.equals(gz.body), path).toBe(true);
      // the first gzip of this ETag may already have happened above; the repeat is a hit
      expect(after.hits - before.hits, path).toBeGreaterThanOrEqual(1);
      expect(after.hits + after.misses - before.hits - before.misses, path).toBe(2);
      const again = await raw(path, { "accept-encoding": "gzip", "if-none-match": gz.headers.etag! });
      expect(again.status, path).toBe(304);
      expect(again.body.length, path).toBe(0);
      // gzip refused: identity
      const refused = await raw(path, { "accept-encoding": "gzip;q=0, identity" });
      expect(refused.headers["content-encoding"], path).toBeUndefined();
      expect(refused.body.equals(identity.body), path).toBe(true);
      expect(refused.headers["x-console-sha256"], path).toBeUndefined();
    }
  });

  it("never serve one answer's gzip for another's: keyed by the digest the answer carries, not by an ETag that names a revision (a policy's CAS token)", async () => {
    // two tables without an override: both policy views carry the token "0" and bodies of one length
    const paths = ["/api/v1/policies/gzip-test%2Faaaa", "/api/v1/policies/gzip-test%2Fbbbb"];
    const identity = await Promise.all(paths.map((p) => raw(p, { authorization: `Bearer ${ADMIN}` })));
    for (const r of identity) expect(r.status).toBe(200);
    expect(identity[0].headers.etag).toBe(identity[1].headers.etag);
    expect(identity[0].body.length).toBe(identity[1].body.length);
    const targets = ["gzip-test/aaaa", "gzip-test/bbbb"];
    for (let round = 0; round < 2; round++)
      for (const [i, p] of paths.entries()) {
        const gz = await raw(p, { authorization: `Bearer ${ADMIN}`, "accept-encoding": "gzip" });
        const body = (gz.headers["content-encoding"] === "gzip" ? gunzipSync(gz.body) : gz.body).toString("utf8");
        // each answer names its own table, never the other's
        expect(body, `${p} round ${round}`).toContain(JSON.stringify(targets[i]));
        expect(body, `${p} round ${round}`).not.toContain(JSON.stringify(targets[1 - i]));
      }
  });

  it("leave everything else to the compression middleware: a page is gzipped as it streams, an error is not cached, HEAD has no body", async () => {
    const before = await gzipCounts();
    const page = await raw("/tables", { "accept-encoding": "gzip" });
    expect(page.status).toBe(200);
    expect(page.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(page.body).toString("utf8")).toMatch(/<html/i);
    const error = await raw(`/api/v1/scheduler/demand${q({ limit: "many" })}`, { "accept-encoding": "gzip" });
    expect(error.status).toBe(400);
    expect(
      JSON.parse((error.headers["content-encoding"] === "gzip" ? gunzipSync(error.body) : error.body).toString("utf8"))
        .error.code,
    ).toBe("invalid_query");
    const head = await raw(pinnedReads()[0], { "accept-encoding": "gzip" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    const after = await gzipCounts();
    expect(after.hits + after.misses).toBe(before.hits + before.misses);
  });

  it("answer with new bytes and a new ETag after a change", async () => {
    const path = `/api/v1/scheduler/demand${q({ now_ms: NOW, include_idle: true, limit: 50 })}`;
    const before = await raw(path);
    const target = "encoded/changed-table";
    await client.put(keys.demandEvent(prefix, target, "s1")).value(
      JSON.stringify({
        v: 1,
        shard: "s1",
        sealed_through: 30,
        merged_through: 10,
        flushed_at_ms: NOW - 1000,
        writer_epoch: 1,
        source: "writer",
      }),
    );
    const after = await until(
      async () => {
        const res = await raw(path, { "if-none-match": before.headers.etag! });
        return res.status === 200 &&
          demandListSchema.parse(JSON.parse(res.body.toString())).tables.some((t) => t.target === target)
          ? res
          : undefined;
      },
      10_000,
      50,
    );
    expect(after, "the change shows").not.toBeNull();
    expect(after!.value.headers.etag).not.toBe(before.headers.etag);
    expect(after!.value.body.equals(before.body)).toBe(false);
  });

  it("never cache an error, nor a write: no-store and no ETag", async () => {
    const missing = `/api/v1/scheduler/demand${q({ revision: pinned, now_ms: NOW, target: "no/such-table" })}`;
    for (let i = 0; i < 2; i++) {
      const res = await raw(missing);
      expect(res.status).toBe(404);
      expect(res.headers["cache-control"]).toBe("no-store");
      expect(res.headers.etag).toBeUndefined();
    }
    const bad = await raw(`/api/v1/scheduler/demand${q({ limit: 0 })}`);
    expect(bad.status).toBe(400);
    expect(bad.headers["cache-control"]).toBe("no-store");
    const denied = await raw("/api/v1/policies/_default", {}, "PUT");
    expect(denied.status).toBe(401);
    expect(denied.headers["cache-control"]).toBe("no-store");
    const write = await fetch(`${app.url}/api/v1/policies/${encodeURIComponent("encoded/changed-table")}`, {
      method: "PUT",
      headers: {
        authorization: `Bearer ${ADMIN}`,
        "content-type": "application/json",
        "if-match": "0",
        "x-change-reason": "encoded-response test",
      },
      body: JSON.stringify({ mode: "legacy" }),
    });
    expect(write.status).toBe(200);
    expect(write.headers.get("cache-control")).toBe("no-store");
    expect(write.headers.get("etag")).not.toBeNull(); // the policy's mod_revision (console-api.md), not a byte hash
  });
});

describe("a listing's changes (?since=)", () => {
  /** The whole listing page by page (3 rows a page), as the /tables page reads it. */
  async function wholeListing(): Promise<DemandList> {
    const first = await okBody(
      app.url,
      `/api/v1/scheduler/demand${q({ now_ms: NOW, include_idle: true, limit: 3 })}`,
      demandListSchema,
    );
    const tables = [...first.tables];
    let last = first;
    while (last.next_cursor) {
      last = await okBody(
        app.url,
        `/api/v1/scheduler/demand${q({ include_idle: true, limit: 3, cursor: last.next_cursor })}`,
        demandListSchema,
      );
      tables.push(...last.tables);
    }
    return { ...first, tables, listing: last.listing, next_cursor: null };
  }

  const changesSince = (listing: string) =>
    okBody(
      app.url,
      `/api/v1/scheduler/demand${q({ now_ms: NOW, include_idle: true, since: listing })}`,
      demandChangesSchema,
    );

  it("send nothing while nothing changed, then only the rows that changed, which rebuild the listing read afresh", async () => {
    const base = await wholeListing();
    expect(base.tables.length).toBeGreaterThan(3);
    const unchanged = await changesSince(base.listing);
    expect(unchanged.changes).toEqual({
      since: base.listing,
      rows: [],
      patches: [],
      shifts: [],
      lines: expect.any(Object),
      removed: [],
    });

    const target = INCIDENT.brokenStoreRepeat;
    await client.put(keys.demandEvent(prefix, target, "s9")).value(
      JSON.stringify({
        v: 1,
        shard: "s9",
        sealed_through: 500,
        merged_through: 1,
        flushed_at_ms: NOW - 5000,
        writer_epoch: 1,
        source: "writer",
      }),
    );
    const changed = await until(
      async () => {
        const c = await changesSince(base.listing);
        return c.changes && c.changes.rows.some((r) => r.table.target === target) ? c : undefined;
      },
      10_000,
      50,
    );
    expect(changed, "the change shows").not.toBeNull();
    const { changes, matched } = changed!.value;
    expect(changes!.rows.length + changes!.patches.length).toBeLessThan(base.tables.length);
    const rebuilt = applyChanges(base.tables, changes!, matched);
    const fresh = await wholeListing();
    expect(fresh.listing).toBe(changed!.value.listing);
    expect(rebuilt).toEqual(fresh.tables);
  });

  it("answer changes: null for a listing it does not hold, and 400 for one of other filters", async () => {
    const unknown = await changesSince("not-a-listing-held-here");
    expect(unknown.changes).toBeNull();
    const base = await wholeListing();
    const res = await raw(
      `/api/v1/scheduler/demand${q({ now_ms: NOW, include_idle: true, sort: "target", since: base.listing })}`,
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body.toString()).error.issues[0].path).toEqual(["since"]);
  });
});
