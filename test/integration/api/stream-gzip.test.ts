// scripts/stream-gzip.mjs over a real HTTP server: the same event bytes written to several
// streams are deflated once and sent to each inside its own gzip member; a stream read as
// it comes decodes event by event (each leaves flushed), and a stream that ends is a whole,
// valid gzip member (its CRC and length checked by zlib). What is not a 200 event stream,
// or goes to a client that does not take gzip, is sent as it is.
import http from "node:http";
import zlib from "node:zlib";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the server (no types)
import { gzipSharedEvents, streamCounters } from "../../../scripts/stream-gzip.mjs";

const encoder = new TextEncoder();
const EVENTS = [
  "retry: 2000\n\n",
  `id: a\nevent: changes\ndata: ${JSON.stringify({ rows: Array.from({ length: 2000 }, (_, i) => ({ at: i, w: i * 7 })) })}\n\n`,
  ": keepalive\n\n",
  `id: b\nevent: changes\ndata: ${JSON.stringify({ patches: [[1, 2, 3]] })}\n\n`,
];

let server: http.Server;
let url = "";
/** how the next request is answered: its status, type and the events it is sent */
let answer = { status: 200, type: "text/event-stream", events: EVENTS, asText: false };

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const accepts = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
    gzipSharedEvents(req, res, accepts);
    res.statusCode = answer.status;
    res.setHeader("content-type", answer.type);
    const [last, ...rest] = [...answer.events].reverse();
    // as the handler does: each event its own chunk (one object, written to each stream), the last with the end
    for (const e of rest.reverse()) res.write(answer.asText ? e : encoder.encode(e));
    res.end(answer.asText ? last : encoder.encode(last));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function get(headers: Record<string, string>): Promise<{ status: number; encoding?: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            encoding: res.headers["content-encoding"],
            body: Buffer.concat(chunks),
          }),
        );
      })
      .on("error", reject);
  });
}

describe("the pushed stream's shared gzip", () => {
  it("deflates each event once for every stream, and each stream is a whole gzip member", async () => {
    answer = { status: 200, type: "text/event-stream", events: EVENTS, asText: false };
    const before = { ...streamCounters };
    const streams = await Promise.all([1, 2, 3].map(() => get({ "accept-encoding": "gzip, deflate" })));
    const whole = EVENTS.join("");
    for (const s of streams) {
      expect([s.status, s.encoding]).toEqual([200, "gzip"]);
      expect(zlib.gunzipSync(s.body).toString()).toBe(whole); // checks the CRC-32 and the length
    }
    // the same bytes on every stream, each event deflated once (they were new: none was held)
    expect(streams[1].body.equals(streams[0].body) && streams[2].body.equals(streams[0].body)).toBe(true);
    expect(streamCounters.deflated - before.deflated).toBe(EVENTS.length);
    expect(streamCounters.shared - before.shared).toBe(2 * EVENTS.length);
    // each event decodes as it comes: the body without its end (the last block, CRC and length)
    const first = streams[0].body;
    const partial = zlib.gunzipSync(first.subarray(0, first.length - 10), { finishFlush: zlib.constants.Z_SYNC_FLUSH });
    expect(partial.toString()).toBe(whole);
  });

  it("takes text chunks as well, and sends as it is what is not a gzipped 200 event stream", async () => {
    answer = { status: 200, type: "text/event-stream", events: EVENTS, asText: true };
    const text = await get({ "accept-encoding": "gzip" });
    expect(zlib.gunzipSync(text.body).toString()).toBe(EVENTS.join(""));
    const plain = await get({});
    expect([plain.encoding, plain.body.toString()]).toEqual([undefined, EVENTS.join("")]);
    answer = {
      status: 503,
      type: "application/json",
      events: ['{"error":', '{"code":"etcd_unavailable"}}'],
      asText: true,
    };
    const error = await get({ "accept-encoding": "gzip" });
    expect([error.status, error.encoding, error.body.toString()]).toEqual([
      503,
      undefined,
      '{"error":{"code":"etcd_unavailable"}}',
    ]);
  });
});
