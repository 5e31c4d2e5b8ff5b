import { describe, expect, it } from "vitest";
import { hex } from "@/lib/schema/keys";
import { tableOfSkippedKey } from "./skipped-key";

describe("tableOfSkippedKey", () => {
  it("decodes the hex(target) segment after the family", () => {
    const key = `/lance-context/master/demand-events/${hex("incident/future-version")}/ffffffff-0000-4000-8000-000000000001`;
    expect(tableOfSkippedKey(key, "demand-events")).toBe("incident/future-version");
    expect(tableOfSkippedKey(`/p/cooldown/compact/${hex("db/ü")}`, "cooldown")).toBe("db/ü");
  });

  it("names no table when no segment decodes", () => {
    expect(tableOfSkippedKey("/lance-context/master/demand-events/zz/shard-1", "demand-events")).toBeNull();
    expect(tableOfSkippedKey("/p/demand-events/abc/shard", "demand-events")).toBeNull(); // odd length
    expect(tableOfSkippedKey("/p/other/6161", "demand-events")).toBeNull(); // family not in the key
  });
});
