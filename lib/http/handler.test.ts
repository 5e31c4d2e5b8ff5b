// apiHandler owns access, same-origin, the body's type and size and If-Match: a handler
// behind it never runs for a request that fails one of them.
import { beforeAll, describe, expect, it } from "vitest";
import { noQuerySchema } from "@/lib/schema/api/common";
import { apiHandler } from "./handler";

const ADMIN = "handler-test-admin-token";
let ran = 0;
const write = apiHandler(
  { route: "/test/write", query: noQuerySchema, access: "admin", body: { maxBytes: 64 }, ifMatch: true },
  async ({ body, ifMatch, principal, params }) => {
    ran++;
    return { body, ifMatch, actor: principal?.actor, params };
  },
);
const preview = apiHandler(
  { route: "/test/preview", query: noQuerySchema, access: "read", body: {} },
  async () => (ran++, { ok: true }),
);

function req(method: string, headers: Record<string, string> = {}, body?: string): Request {
  return new Request("http://console.test/test", { method, headers: { host: "console.test", ...headers }, body });
}
const admin = { authorization: `Bearer ${ADMIN}` };
const json = { "content-type": "application/json" };

beforeAll(() => {
  process.env.CONSOLE_ADMIN_TOKENS = ADMIN;
  process.env.CONSOLE_SHADOW_SAMPLER = "off";
});

describe("apiHandler guards", () => {
  const refusals: [string, () => Promise<Response>, number, string][] = [
    ["no credentials", () => write(req("PUT", { ...json, "if-match": "0" }, "{}")), 401, "unauthorized"],
    [
      "a wrong token",
      () => write(req("PUT", { authorization: "Bearer nope", ...json, "if-match": "0" }, "{}")),
      401,
      "unauthorized",
    ],
    [
      "another origin",
      () => write(req("PUT", { ...admin, ...json, "if-match": "0", origin: "https://evil.example" }, "{}")),
      403,
      "cross_site",
    ],
    [
      "a cross-site preview (read access)",
      () => preview(req("POST", { ...json, "sec-fetch-site": "cross-site" }, "{}")),
      403,
      "cross_site",
    ],
    [
      "text/plain",
      () => write(req("PUT", { ...admin, "content-type": "text/plain", "if-match": "0" }, "{}")),
      415,
      "unsupported_media_type",
    ],
    [
      "too large",
      () => write(req("PUT", { ...admin, ...json, "if-match": "0" }, JSON.stringify({ pad: "x".repeat(100) }))),
      413,
      "payload_too_large",
    ],
    ["not JSON", () => write(req("PUT", { ...admin, ...json, "if-match": "0" }, "{")), 400, "invalid_json"],
    ["no If-Match", () => write(req("PUT", { ...admin, ...json }, "{}")), 428, "precondition_required"],
    [
      "a garbled If-Match",
      () => write(req("PUT", { ...admin, ...json, "if-match": "abc" }, "{}")),
      400,
      "invalid_query",
    ],
    [
      "an unknown query parameter",
      () =>
        write(
          new Request("http://console.test/test?x=1", {
            method: "PUT",
            headers: { host: "console.test", ...admin, ...json, "if-match": "0" },
            body: "{}",
          }),
        ),
      400,
      "invalid_query",
    ],
  ];
  for (const [what, send, status, code] of refusals) {
    it(`${what} → ${status} ${code}, the handler never runs`, async () => {
      const before = ran;
      const res = await send();
      expect(res.status).toBe(status);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe(code);
      expect(ran).toBe(before);
    });
  }

  it("a request that passes reaches the handler with the body, If-Match, the admin and the route params", async () => {
    const res = await write(
      req("PUT", { ...admin, ...json, "if-match": 'W/"42"', origin: "http://console.test" }, '{"a":1}'),
      { params: Promise.resolve({ target: "t/1" }) },
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      body: { a: 1 },
      ifMatch: 42,
      actor: expect.stringMatching(/^admin:[0-9a-f]{12}$/),
      params: { target: "t/1" },
    });
  });
});
