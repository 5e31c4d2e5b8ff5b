import { describe, expect, it } from "vitest";
import {
  countOf,
  formatAgo,
  formatBytes,
  formatCount,
  formatDuration,
  formatIn,
  formatLeft,
  formatScore,
  formatTime,
  waitText,
} from "./format";

describe("format", () => {
  it("formats bytes in binary units", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(536_870_912)).toBe("512.0 MiB");
    expect(formatBytes(-8 * 2 ** 30)).toBe("-8.0 GiB");
    expect(formatBytes(67_108_864)).toBe("64.0 MiB");
    expect(formatBytes(2_147_483_648)).toBe("2.0 GiB");
    expect(formatBytes(null)).toBe("—");
  });

  it("formats durations with two units", () => {
    expect(formatDuration(0)).toBe("0s");
    expect(formatDuration(95_000)).toBe("1m 35s");
    expect(formatDuration(7_380_000)).toBe("2h 03m");
    expect(formatDuration(90_000_000)).toBe("1d 01h");
    expect(formatDuration(-5_000)).toBe("-5s");
    expect(formatDuration(-400)).toBe("0s");
    expect(formatDuration(29_600)).toBe("30s");
    expect(formatDuration(3_599_600)).toBe("1h 00m");
    expect(formatDuration(null)).toBe("—");
  });

  it("formats counts, scores, times", () => {
    expect(formatCount(13405)).toBe("13,405");
    expect(formatCount(2009)).toBe("2,009");
    expect(formatCount(-1234567)).toBe("-1,234,567");
    expect(formatCount(999)).toBe("999");
    expect(formatScore(1.23456)).toBe("1.23");
    expect(formatScore(512.4)).toBe("512");
    expect(formatScore(2250)).toBe("2,250");
    expect(formatScore(15.16)).toBe("15.2");
    expect(waitText(158_000, "upper")).toBe("≥ 2m 38s");
    expect(waitText(158_000, "exact")).toBe("2m 38s");
    expect(countOf(1, "assignment")).toBe("1 assignment");
    expect(countOf(2, "policy", "policies")).toBe("2 policies");
    expect(formatIn(1_201_000, 1_000)).toBe("in 20m 00s");
    expect(formatIn(1_000, 1_000)).toBe("due now");
    expect(formatIn(1_000, 191_000)).toBe("overdue by 3m 10s");
    expect(formatLeft(1_000, 2_000)).toBe("ended");
    expect(formatAgo(5_000, 1_000)).toBe("just now");
    expect(formatScore(null)).toBe("—");
    expect(formatScore("infinity")).toBe("∞");
    expect(formatTime(1_700_000_000_000)).toBe("2023-11-14 22:13:20Z");
    expect(formatAgo(1_000, 61_000)).toBe("1m 00s ago");
  });
});
