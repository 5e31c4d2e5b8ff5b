import { describe, expect, it } from "vitest";
import { auditHref, filtersOf, historyHref, utcInputMs, utcInputValue } from "./filters";

describe("audit filters in the URL", () => {
  it("reads what the API accepts and writes it back in a fixed order", () => {
    const f = filtersOf({
      target: "a/b",
      actor: "alice",
      from_ms: "1700000000000",
      to_ms: "x",
      q: " raise ",
      other: "1",
    });
    expect(f).toEqual({
      target: "a/b",
      target_q: null,
      actor: "alice",
      from_ms: 1_700_000_000_000,
      to_ms: null,
      q: "raise",
    });
    expect(auditHref(f, 42)).toBe("/audit?target=a%2Fb&actor=alice&from_ms=1700000000000&q=raise&revision=42");
    // the form's "Table contains" is a substring of the name, any case
    const part = filtersOf({ target_q: "ORDERS" });
    expect(part).toMatchObject({ target: null, target_q: "ORDERS" });
    expect(auditHref(part, null)).toBe("/audit?target_q=ORDERS");
    expect(auditHref(filtersOf({}), null)).toBe("/audit");
  });
  it("datetime inputs are UTC", () => {
    expect(utcInputValue(Date.UTC(2026, 11, 2, 3, 4, 5))).toBe("2026-12-02T03:04:05");
    expect(utcInputMs("2026-12-02T03:04")).toBe(Date.UTC(2026, 11, 2, 3, 4));
    expect(utcInputMs("")).toBeNull();
  });
  it("an entry links to its table pinned at the change's revision, the target encoded", () => {
    expect(historyHref("orders/eu", 812)).toBe("/tables/orders%2Feu?revision=812");
    expect(historyHref("_default", 9)).toBe("/policies/_default?revision=9");
  });
});
