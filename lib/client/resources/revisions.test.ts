import { describe, expect, it } from "vitest";
import { describeRevisionTime, parsePin, revisionTimeText } from "./revisions";

// 2026-12-01 08:57:30 UTC
const NOW = Date.UTC(2026, 11, 1, 8, 57, 30);

describe("parsePin (the time picker's input)", () => {
  it("reads revisions, with or without separators, and rejects absurd ones", () => {
    expect(parsePin("21000", NOW, 30_000)).toEqual({ kind: "revision", revision: 21_000 });
    expect(parsePin("rev 21,000", NOW, 30_000)).toEqual({ kind: "revision", revision: 21_000 });
    expect(parsePin("#7", NOW, null)).toEqual({ kind: "revision", revision: 7 });
    expect(parsePin("99999999999999999999", NOW, 30_000)).toMatchObject({
      kind: "error",
      message: "99999999999999999999 is not a revision etcd can have",
    });
    expect(parsePin("0", NOW, 30_000).kind).toBe("error");
    expect(parsePin("40000", NOW, 30_000)).toEqual({
      kind: "error",
      message: "revision 40,000 does not exist yet (the newest is 30,000)",
    });
  });

  it("reads clock times as today's (UTC), or last night's when later than now", () => {
    expect(parsePin("03:10", NOW, null)).toEqual({ kind: "time", atMs: Date.UTC(2026, 11, 1, 3, 10) });
    expect(parsePin("today 03:10:12", NOW, null)).toEqual({ kind: "time", atMs: Date.UTC(2026, 11, 1, 3, 10, 12) });
    expect(parsePin("yesterday 22:00", NOW, null)).toEqual({ kind: "time", atMs: Date.UTC(2026, 10, 30, 22, 0) });
    expect(parsePin("22:00", NOW, null)).toEqual({ kind: "time", atMs: Date.UTC(2026, 10, 30, 22, 0) });
    expect(parsePin("today 22:00", NOW, null)).toEqual({ kind: "error", message: "today 22:00 is in the future" });
    expect(parsePin("25:00", NOW, null).kind).toBe("error");
  });

  it("reads relative times and dates", () => {
    expect(parsePin("2h ago", NOW, null)).toEqual({ kind: "time", atMs: NOW - 7_200_000 });
    expect(parsePin("1h 30m ago", NOW, null)).toEqual({ kind: "time", atMs: NOW - 5_400_000 });
    expect(parsePin("45 minutes ago", NOW, null)).toEqual({ kind: "time", atMs: NOW - 2_700_000 });
    expect(parsePin("now", NOW, null)).toEqual({ kind: "time", atMs: NOW });
    expect(parsePin("2026-12-01 03:10", NOW, null)).toEqual({ kind: "time", atMs: Date.UTC(2026, 11, 1, 3, 10) });
    expect(parsePin("2026-02-30", NOW, null)).toEqual({ kind: "error", message: "2026-02-30 is not a date" });
    expect(parsePin("2027-01-01", NOW, null)).toEqual({ kind: "error", message: "2027-01-01 is in the future" });
  });

  it("says what it cannot read", () => {
    expect(parsePin("", NOW, null).kind).toBe("error");
    expect(parsePin("last tuesday", NOW, null)).toEqual({
      kind: "error",
      message: 'cannot read "last tuesday": type a time (03:10, yesterday 22:00, 2h ago) or a revision',
    });
    expect(parsePin("3 fortnights ago", NOW, null).kind).toBe("error");
  });
});

describe("describeRevisionTime", () => {
  it("gives the error in seconds and the basis in words", () => {
    expect(describeRevisionTime({ revision: 1, at_ms: 0, basis: "record_timestamps", error_ms: 4_000 })).toBe(
      "±4 s, estimated from heartbeats and flush times",
    );
    expect(describeRevisionTime({ revision: 1, at_ms: 0, basis: "console_clock", error_ms: 300 })).toBe(
      "±< 1 s, from the console's clock",
    );
    expect(describeRevisionTime({ revision: 1, at_ms: null, basis: "unknown", error_ms: null })).toBe("time unknown");
  });
});

describe("revisionTimeText", () => {
  it("says a narrow estimate as a time, a wide one as the range it stands for", () => {
    const at = Date.UTC(2026, 11, 1, 19, 9, 48);
    expect(revisionTimeText({ revision: 1, at_ms: at, basis: "console_clock", error_ms: 4_000 })).toBe(
      "2026-12-01 19:09:48Z (±4 s, from the console's clock)",
    );
    expect(revisionTimeText({ revision: 1, at_ms: at, basis: "record_timestamps", error_ms: 12 * 3_600_000 })).toBe(
      "some time between 2026-12-01 07:09:48Z and 2026-12-02 07:09:48Z (estimated from heartbeats and flush times: the console's own clock samples do not reach back this far)",
    );
    expect(revisionTimeText({ revision: 1, at_ms: null, basis: "unknown", error_ms: null })).toBe("an unknown time");
  });
});
