import { describe, expect, it } from "vitest";
import { serverAllocatorEnv, serverNodeFlags } from "./server-flags";

describe("serverNodeFlags", () => {
  it("starts the server with 64 MiB young-generation semi-spaces and a 50 % old-generation growth unless NODE_OPTIONS sets them", () => {
    const both = ["--max-semi-space-size=64", "--heap-growing-percent=50"];
    expect(serverNodeFlags(undefined)).toEqual(both);
    expect(serverNodeFlags("")).toEqual(both);
    expect(serverNodeFlags("--enable-source-maps --max-old-space-size=2048")).toEqual(both);
  });

  it("leaves the operator's own setting to win, in either spelling", () => {
    expect(serverNodeFlags("--max-semi-space-size=64")).toEqual(["--heap-growing-percent=50"]);
    expect(serverNodeFlags("--enable-source-maps  --max_semi_space_size=8")).toEqual(["--heap-growing-percent=50"]);
  });
});

describe("serverAllocatorEnv", () => {
  it("fixes glibc's mmap threshold at 128 KiB and its arenas at two, each unless the operator set it", () => {
    expect(serverAllocatorEnv({})).toEqual({ MALLOC_MMAP_THRESHOLD_: "131072", MALLOC_ARENA_MAX: "2" });
    expect(serverAllocatorEnv({ MALLOC_MMAP_THRESHOLD_: "65536" })).toEqual({ MALLOC_ARENA_MAX: "2" });
    expect(serverAllocatorEnv({ MALLOC_ARENA_MAX: "4" })).toEqual({ MALLOC_MMAP_THRESHOLD_: "131072" });
    expect(serverAllocatorEnv({ MALLOC_MMAP_THRESHOLD_: "65536", MALLOC_ARENA_MAX: "4" })).toEqual({});
  });
});
