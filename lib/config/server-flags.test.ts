import { describe, expect, it } from "vitest";
import { serverNodeFlags } from "./server-flags";

describe("serverNodeFlags", () => {
  it("starts the server with 64 MiB young-generation semi-spaces unless NODE_OPTIONS sets one", () => {
    expect(serverNodeFlags(undefined)).toEqual(["--max-semi-space-size=64"]);
    expect(serverNodeFlags("")).toEqual(["--max-semi-space-size=64"]);
    expect(serverNodeFlags("--enable-source-maps --max-old-space-size=2048")).toEqual(["--max-semi-space-size=64"]);
  });

  it("leaves the operator's own setting to win, in either spelling", () => {
    expect(serverNodeFlags("--max-semi-space-size=64")).toEqual([]);
    expect(serverNodeFlags("--enable-source-maps  --max_semi_space_size=8")).toEqual([]);
  });
});
