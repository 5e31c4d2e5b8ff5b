import { describe, expect, it } from "vitest";
import { twoCopies } from "@/test/support/two-copies";
import { crossBundle } from "./brand";

describe("crossBundle", () => {
  it("an instance made by one copy of a class is an instance of the other copy; other errors are not", () => {
    const copy = () => crossBundle("test.Twice", class Twice extends Error {});
    const [A, B] = [copy(), copy()];
    expect(A).not.toBe(B);
    expect(new A() instanceof B).toBe(true);
    expect(new B() instanceof A).toBe(true);
    expect(new Error() instanceof A).toBe(false);
    expect(new (crossBundle("test.Other", class Other extends Error {}))() instanceof A).toBe(false);
    expect((null as unknown as object) instanceof A).toBe(false);
  });

  it("an ApiError thrown by another bundle's copy is answered with its own status, not as an internal error", async () => {
    const [a, b] = await twoCopies(() => import("@/lib/schema/api/errors"));
    expect(a.ApiError).not.toBe(b.ApiError);
    const thrown = new a.ApiError(404, "not_found", "before the oldest readable revision");
    expect(thrown instanceof b.ApiError).toBe(true);
    expect(b.classifyError(thrown)?.status).toBe(404);
  });

  it("etcd's typed errors too", async () => {
    const [a, b] = await twoCopies(() => import("@/lib/etcd/errors"));
    expect(new a.RevisionCompacted(5, 9) instanceof b.RevisionCompacted).toBe(true);
    expect(new a.EtcdUnavailable("down") instanceof b.EtcdTimeout).toBe(false);
  });
});
