// classifyError (console-api.md "Conventions"): etcd auth failures are a typed 503, never 500.
import { describe, expect, it } from "vitest";
import { classifyError } from "./errors";

// etcd3's error classes set no `name`: their constructor name and message identify them
class EtcdPermissionDeniedError extends Error {}
class GRPCUnauthenticatedError extends Error {}

describe("classifyError: etcd auth failures", () => {
  it("permission denied (etcd3 class, grpc code 7, or a wrapped cause) → 503 etcd_unavailable, reason permission_denied", () => {
    for (const e of [
      new EtcdPermissionDeniedError("etcdserver: permission denied"),
      Object.assign(new Error("7 PERMISSION_DENIED: denied"), { code: 7 }),
      new Error("read fleet failed", { cause: new EtcdPermissionDeniedError("etcdserver: permission denied") }),
    ]) {
      const c = classifyError(e)!;
      expect(c.status).toBe(503);
      expect(c.body.error.code).toBe("etcd_unavailable");
      expect(c.body.error.reason).toBe("permission_denied");
      expect(c.body.error.retry_after_ms).toBe(2000);
      expect(c.body.error.message).toMatch(/^etcd denied the console's user permission to read/);
    }
  });

  it("unauthenticated (grpc code 16, invalid token) → 503 etcd_unavailable, reason unauthenticated", () => {
    for (const e of [
      new GRPCUnauthenticatedError("16 UNAUTHENTICATED"),
      new Error("etcdserver: invalid auth token"),
      Object.assign(new Error("x"), { code: 16 }),
    ]) {
      const c = classifyError(e)!;
      expect([c.status, c.body.error.code, c.body.error.reason]).toEqual([503, "etcd_unavailable", "unauthenticated"]);
    }
  });

  it("an unrelated error stays unclassified (500 internal)", () => {
    expect(classifyError(new Error("boom"))).toBeNull();
    expect(classifyError(Object.assign(new Error("x"), { code: "ENOENT" }))).toBeNull();
  });
});
