// The byte cache of cacheable answers (lib/api/encoded-response.ts): one encoding per key,
// strong ETag, 304 on If-None-Match, brotli / gzip by Accept-Encoding, no-cache headers.
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { beforeEach, describe, expect, it } from "vitest";
import { cacheable, chooseCoding, clearEncodedResponses, encodedResponse } from "./encoded-response";

const body = { revision: 7, tables: Array.from({ length: 200 }, (_, i) => ({ target: `t${i}`, score: i })) };
const request = (headers: Record<string, string> = {}) => new Request("http://console/api/v1/scheduler/demand", { headers });

beforeEach(() => clearEncodedResponses());

describe("encoded responses", () => {
  it("encode once per key: a repeat is served from the same bytes", async () => {
    let built = 0;
    const answer = () => cacheable("k", () => (built++, body));
    const first = await encodedResponse(request(), answer());
    const second = await encodedResponse(request(), answer());
    expect(built).toBe(1);
    expect(await second.text()).toBe(JSON.stringify(body));
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(first.headers.get("etag")).toMatch(/^"[\w-]{32}"$/);
    expect(first.headers.get("cache-control")).toBe("no-cache");
    expect(first.headers.get("vary")).toBe("accept-encoding");
  });

  it("answer If-None-Match with 304 and no body; another ETag gets the bytes", async () => {
    const first = await encodedResponse(request(), cacheable("k", () => body));
    const etag = first.headers.get("etag")!;
    const same = await encodedResponse(request({ "if-none-match": `"other", ${etag}` }), cacheable("k", () => body));
    expect(same.status).toBe(304);
    expect(await same.text()).toBe("");
    expect(same.headers.get("etag")).toBe(etag);
    const other = await encodedResponse(request({ "if-none-match": '"other"' }), cacheable("k", () => body));
    expect(other.status).toBe(200);
  });

  it("compress per Accept-Encoding, to the same bytes; a coded ETag revalidates too", async () => {
    const identity = JSON.stringify(body);
    const br = await encodedResponse(request({ "accept-encoding": "gzip, deflate, br" }), cacheable("k", () => body));
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(identity);
    const gz = await encodedResponse(request({ "accept-encoding": "gzip;q=1, br;q=0" }), cacheable("k", () => body));
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(identity);
    expect(gz.headers.get("etag")).toMatch(/\.gz"$/);
    const revalidated = await encodedResponse(request({ "accept-encoding": "gzip", "if-none-match": gz.headers.get("etag")! }), cacheable("k", () => body));
    expect(revalidated.status).toBe(304);
  });

  it("send a small body as it is", async () => {
    const small = await encodedResponse(request({ "accept-encoding": "br" }), cacheable("small", () => ({ ok: true })));
    expect(small.headers.get("content-encoding")).toBeNull();
    expect(await small.text()).toBe('{"ok":true}');
  });

  it("pick brotli, then gzip, never a coding refused with q=0", () => {
    expect(chooseCoding("gzip, deflate, br, zstd")).toBe("br");
    expect(chooseCoding("gzip")).toBe("gzip");
    expect(chooseCoding("br;q=0, gzip;q=0.5")).toBe("gzip");
    expect(chooseCoding("*;q=0")).toBeNull();
    expect(chooseCoding("identity")).toBeNull();
    expect(chooseCoding(null)).toBeNull();
  });
});
