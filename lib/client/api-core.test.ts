// The page and the command line read the API through one core: the same URL, the same
// typed error from the same error body, the same check of an answer's shape.
import { afterEach, describe, expect, it, vi } from "vitest";
import { revisionTimeSchema } from "@/lib/schema/api/revisions";
import { ApiFailure, ConsoleClient } from "@/lib/cli/client";
import { ApiError, apiErrorOf, apiUrl, parseAnswer, queryString, readAnswer, targetPath } from "./api-core";
import { buildQuery, fetchJson } from "./fetch-json";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("URLs", () => {
  it("leave out null and undefined, repeat an array's name, percent-encode targets", () => {
    expect(
      queryString({ target: "db/t 1&x", class: ["merge_due", "idle"], n: 3, on: true, off: null, u: undefined }),
    ).toBe("?target=db%2Ft+1%26x&class=merge_due&class=idle&n=3&on=true");
    expect(queryString({ u: undefined })).toBe("");
    expect(apiUrl("http://console:3000//", "/api/v1/scheduler/demand", { target: "a/b" })).toBe(
      "http://console:3000/api/v1/scheduler/demand?target=a%2Fb",
    );
    expect(targetPath("/api/v1/policies", "db/t%1")).toBe("/api/v1/policies/db%2Ft%251");
  });

  it("an empty value: the command line sends it, the page leaves an empty filter field out", () => {
    expect(queryString({ target: "", q: "x" })).toBe("?target=&q=x");
    expect(buildQuery({ target: "", q: "x" })).toBe("?q=x");
  });
});

describe("answers and errors", () => {
  it("reads JSON, and an empty or HTML body without throwing", async () => {
    expect(await readAnswer(json(200, { a: 1 }))).toEqual({
      status: 200,
      ok: true,
      text: '{"a":1}',
      json: true,
      body: { a: 1 },
    });
    expect(await readAnswer(new Response("", { status: 200 }))).toMatchObject({ json: false, body: null });
    expect(await readAnswer(new Response("<html>", { status: 502 }))).toMatchObject({
      json: false,
      body: null,
      ok: false,
    });
  });

  it("the API's error body becomes a typed error with its code, message and extra fields", async () => {
    const body = { error: { code: "revision_compacted", message: "revision 5 is compacted", compact_revision: 9 } };
    const e = apiErrorOf(await readAnswer(json(410, body)), "HTTP 410");
    expect(e).toBeInstanceOf(ApiError);
    expect([e.status, e.code, e.message, e.body]).toEqual([
      410,
      "revision_compacted",
      "revision 5 is compacted",
      body.error,
    ]);
    const bare = apiErrorOf(await readAnswer(json(500, null)), "HTTP 500");
    expect([bare.code, bare.message, bare.body]).toEqual(["http_500", "HTTP 500", null]);
  });

  it("an answer that does not fit its schema is unexpected_answer, naming where", () => {
    const ok = { revision: 7, at_ms: 1000, basis: "console_clock", error_ms: 5 };
    expect(parseAnswer(revisionTimeSchema, ok, "/api/v1/revisions/time")).toEqual(ok);
    let e: unknown = null;
    try {
      parseAnswer(revisionTimeSchema, { ...ok, revision: "7" }, "/api/v1/revisions/time");
    } catch (thrown) {
      e = thrown;
    }
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe("unexpected_answer");
    expect((e as ApiError).message).toMatch(/^\/api\/v1\/revisions\/time answered an unexpected shape at revision: /);
  });
});

describe("the page and the command line agree", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("on the URL and on the error of one answer", async () => {
    const body = { error: { code: "not_found", message: "no table db/t", target: "db/t" } };
    const urls: string[] = [];
    const answer = async (url: string | URL | Request) => (urls.push(String(url)), json(404, body));
    vi.stubGlobal("fetch", vi.fn(answer));
    const page = await fetchJson("/api/v1/scheduler/demand", { target: "db/t" }).catch((e: unknown) => e);
    const cli = await new ConsoleClient({ url: "http://console", fetch: answer as typeof fetch })
      .get("/api/v1/scheduler/demand", { target: "db/t" })
      .catch((e: unknown) => e);
    expect(urls).toEqual([
      "/api/v1/scheduler/demand?target=db%2Ft",
      "http://console/api/v1/scheduler/demand?target=db%2Ft",
    ]);
    expect(page).toBeInstanceOf(ApiError);
    expect(cli).toBeInstanceOf(ApiFailure);
    const [p, c] = [page as ApiError, cli as ApiFailure];
    expect([c.status, c.code, c.message]).toEqual([p.status, p.code, p.message]);
    expect([p.status, p.code, p.message, p.body]).toEqual([404, "not_found", "no table db/t", body.error]);
  });

  it("the command line checks an answer against its schema when given one", async () => {
    const client = (body: unknown) =>
      new ConsoleClient({ url: "http://console", fetch: (async () => json(200, body)) as typeof fetch });
    const good = { revision: 7, at_ms: null, basis: "unknown", error_ms: null };
    expect(await client(good).get("/api/v1/revisions/time", {}, revisionTimeSchema)).toEqual(good);
    const bad = await client({ revision: 7 })
      .get("/api/v1/revisions/time", {}, revisionTimeSchema)
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ApiFailure);
    expect((bad as ApiFailure).code).toBe("unexpected_answer");
  });
});
