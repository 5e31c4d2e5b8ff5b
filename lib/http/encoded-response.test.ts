// The byte cache of cacheable answers (lib/http/encoded-response.ts): one encoding per key,
// strong ETag, 304 on If-None-Match (weak comparison, lists, `*`), no-cache headers.
import { beforeEach, describe, expect, it } from "vitest";
import { cacheable, clearEncodedResponses, encodedResponse } from "./encoded-response";

const body = { revision: 7, tables: Array.from({ length: 200 }, (_, i) => ({ target: `t${i}`, score: i })) };
const request = (headers: Record<string, string> = {}) =>
  new Request("http://console/api/v1/scheduler/demand", { headers });

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
    const first = await encodedResponse(
      request(),
      cacheable("k", () => body),
    );
    const etag = first.headers.get("etag")!;
    const same = await encodedResponse(
      request({ "if-none-match": `"other", ${etag}` }),
      cacheable("k", () => body),
    );
    expect(same.status).toBe(304);
    expect(await same.text()).toBe("");
    expect(same.headers.get("etag")).toBe(etag);
    const other = await encodedResponse(
      request({ "if-none-match": '"other"' }),
      cacheable("k", () => body),
    );
    expect(other.status).toBe(200);
  });

  it("match If-None-Match weakly, and `*`", async () => {
    const etag = (
      await encodedResponse(
        request(),
        cacheable("k", () => body),
      )
    ).headers.get("etag")!;
    expect(
      (
        await encodedResponse(
          request({ "if-none-match": `W/${etag}` }),
          cacheable("k", () => body),
        )
      ).status,
    ).toBe(304);
    expect(
      (
        await encodedResponse(
          request({ "if-none-match": "*" }),
          cacheable("k", () => body),
        )
      ).status,
    ).toBe(304);
    expect(
      (
        await encodedResponse(
          request({ "if-none-match": etag.slice(0, -2) + '"' }),
          cacheable("k", () => body),
        )
      ).status,
    ).toBe(200);
  });

  it("encode another key afresh", async () => {
    const a = await encodedResponse(
      request(),
      cacheable("a", () => ({ n: 1 })),
    );
    const b = await encodedResponse(
      request(),
      cacheable("b", () => ({ n: 2 })),
    );
    expect(await b.text()).toBe('{"n":2}');
    expect(b.headers.get("etag")).not.toBe(a.headers.get("etag"));
  });
});
