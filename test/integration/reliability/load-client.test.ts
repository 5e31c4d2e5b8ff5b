// The load run's light client (test/support/load-client.ts "bytes") against a plain HTTP
// server that answers as told: it must count a 200 whose body is not JSON as an error on
// its spot check, report a non-200 with its decoded body, and a network error as status 0,
// so that a benchmark whose clients no longer parse every answer still fails on a broken one.
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadClient } from "../../support/load-client";

let server: http.Server;
let base = "";
const seen: { encoding: string | undefined }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ encoding: req.headers["accept-encoding"] as string | undefined });
    const body = req.url === "/json" ? '{"ok":true}' : req.url === "/text" ? "not json" : "etcd is unavailable";
    res.writeHead(req.url === "/down" ? 503 : 200, { "content-encoding": "gzip" });
    res.end(zlib.gzipSync(body));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("the load run's light client", () => {
  it("accepts gzip, times JSON answers, and counts a 200 that is not JSON as an error on its spot check", async () => {
    const client = loadClient("bytes", 4);
    try {
      const json = await Promise.all(Array.from({ length: 100 }, () => client.get(`${base}/json`)));
      expect(json.every((r) => r.status === 200 && r.problem === undefined && r.ms >= 0)).toBe(true);
      expect(seen.every((s) => s.encoding === "gzip")).toBe(true);
      const text = await Promise.all(Array.from({ length: 100 }, () => client.get(`${base}/text`)));
      const broken = text.filter((r) => r.status !== 200);
      // one 200 in fifty is decoded and parsed: two of these hundred
      expect(broken).toHaveLength(2);
      expect(broken[0].problem).toMatch(/not JSON/);
    } finally {
      client.close();
    }
  });

  it("reports a non-200 with its decoded body, and a refused connection as status 0", async () => {
    const client = loadClient("bytes", 1);
    try {
      const down = await client.get(`${base}/down`);
      expect(down).toMatchObject({ status: 503, problem: "etcd is unavailable" });
      const closed = http.createServer();
      await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
      const port = (closed.address() as AddressInfo).port;
      await new Promise<void>((r) => closed.close(() => r()));
      const refused = await client.get(`http://127.0.0.1:${port}/json`);
      expect(refused.status).toBe(0);
      expect(refused.problem).toMatch(/ECONNREFUSED/);
    } finally {
      client.close();
    }
  });
});
