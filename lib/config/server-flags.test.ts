import { describe, expect, it } from "vitest";
import { lastFlagValue, semiSpaceMib, serverAllocatorEnv, serverNodeFlags } from "./server-flags";

describe("semiSpaceMib", () => {
  it("is a 32nd of the budget, a power of two from 16 to 64 MiB", () => {
    const at = (budgets: number[]) => budgets.map(semiSpaceMib);
    expect(at([64, 512, 767, 1023])).toEqual([16, 16, 16, 16]);
    expect(at([1024, 1536, 2047])).toEqual([32, 32, 32]);
    expect(at([2048, 4096, 1_048_576])).toEqual([64, 64, 64]);
  });
});

describe("serverNodeFlags", () => {
  it("starts the server with its budget's semi-spaces and a 50 % old-generation growth unless NODE_OPTIONS sets them", () => {
    const atDefault = ["--max-semi-space-size=32", "--heap-growing-percent=50"];
    expect(serverNodeFlags(undefined, 1024)).toEqual(atDefault);
    expect(serverNodeFlags("", 1024)).toEqual(atDefault);
    expect(serverNodeFlags("--enable-source-maps --max-old-space-size=2048", 1024)).toEqual(atDefault);
    expect(serverNodeFlags(undefined, 4096)).toEqual(["--max-semi-space-size=64", "--heap-growing-percent=50"]);
    expect(serverNodeFlags(undefined, 64)).toEqual(["--max-semi-space-size=16", "--heap-growing-percent=50"]);
  });

  it("leaves the operator's own setting to win, in either spelling", () => {
    expect(serverNodeFlags("--max-semi-space-size=64", 1024)).toEqual(["--heap-growing-percent=50"]);
    expect(serverNodeFlags("--enable-source-maps  --max_semi_space_size=8", 1024)).toEqual([
      "--heap-growing-percent=50",
    ]);
    expect(serverNodeFlags("--heap-growing-percent=20", 1024)).toEqual(["--max-semi-space-size=32"]);
  });
});

describe("lastFlagValue", () => {
  it("reads the last --name=value, in either spelling, and nothing from a flag without a value", () => {
    const args = ["--heap-growing-percent=30", "--inspect", "--heap_growing_percent=45", "--max-semi-space-size=8"];
    expect(lastFlagValue(args, "--heap-growing-percent")).toBe("45");
    expect(lastFlagValue(args, "--max-semi-space-size")).toBe("8");
    expect(lastFlagValue(args, "--inspect")).toBeUndefined();
    expect(lastFlagValue([], "--heap-growing-percent")).toBeUndefined();
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
