import { describe, expect, it } from "vitest";
import { madeFrom, responseOver } from "./response-body";

describe("responseOver", () => {
  it("reads as the text it was made from, UTF-8, and keeps that very text beside it", async () => {
    const text = JSON.stringify({ target: "täble/ü", note: "≤ 50 ms" });
    const response = responseOver(text, { status: 201, headers: { "content-type": "application/json" } });
    expect(madeFrom(response)).toBe(text);
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(Buffer.from(await response.arrayBuffer())).toEqual(Buffer.from(text, "utf8"));
  });

  it("reads as the bytes it was made from, which it neither copies nor changes", async () => {
    const bytes = new TextEncoder().encode('{"a":1}');
    const before = Buffer.from(bytes);
    const response = responseOver(bytes, { status: 200 });
    expect(madeFrom(response)).toBe(bytes);
    expect(await response.text()).toBe('{"a":1}');
    expect(Buffer.from(bytes)).toEqual(before);
  });

  it("knows nothing of a Response it did not make", () => {
    expect(madeFrom(new Response("x"))).toBeUndefined();
  });
});
