// fastRange reaches into etcd3's private ConnectionPool. This fails loudly, naming the
// member, if the installed etcd3 no longer has what it uses. No etcd is needed: etcd3
// and grpc-js connect lazily, and nothing here sends a request.
import { Metadata } from "@grpc/grpc-js";
import { Etcd3 } from "etcd3";
import { afterAll, describe, expect, it } from "vitest";
import { poolOf } from "./fast-range";

const plain = new Etcd3({ hosts: "127.0.0.1:1" });
const authed = new Etcd3({ hosts: "127.0.0.1:1", auth: { username: "u", password: "p" } });
afterAll(() => {
  plain.close();
  authed.close();
});

describe("etcd3 internals fastRange depends on", () => {
  it("the pool has withConnection, shuffledHosts, globalPolicy.execute and, with auth, authenticator.invalidateMetadata", () => {
    expect(() => poolOf(plain)).not.toThrow();
    expect(() => poolOf(authed)).not.toThrow();
    expect(typeof poolOf(authed).authenticator?.invalidateMetadata).toBe("function");
  });

  it("withConnection hands a grpc client with makeUnaryRequest and its metadata, on the hosts asked for", async () => {
    const pool = poolOf(plain);
    const hosts = pool.shuffledHosts();
    expect(typeof hosts.next).toBe("function");
    const seen = await pool.withConnection(
      "KV",
      async ({ client, metadata }) => ({
        unary: typeof client.makeUnaryRequest,
        metadata: metadata instanceof Metadata,
      }),
      hosts,
    );
    expect(seen).toEqual({ unary: "function", metadata: true });
    expect(await pool.globalPolicy.execute(async () => 42)).toBe(42);
  });

  it("names what is missing", () => {
    expect(() => poolOf({} as Etcd3)).toThrow(
      "etcd3 internals changed: Etcd3 lacks pool, pool.withConnection, pool.shuffledHosts, pool.globalPolicy.execute",
    );
    const broken = { pool: { withConnection: () => 0, shuffledHosts: () => 0, globalPolicy: {} } } as unknown as Etcd3;
    expect(() => poolOf(broken)).toThrow("Etcd3 lacks pool.globalPolicy.execute");
  });
});
