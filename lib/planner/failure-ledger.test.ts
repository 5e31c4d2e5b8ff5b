import { describe, expect, it } from "vitest";
import {
  backoffSecs,
  classifyFailure,
  correctOnRead,
  explicitHttpStatuses,
  ledgerBlock,
  recordFailure,
} from "./failure-ledger";
import type { FailureLedgerRecord } from "./failure-ledger";

describe("T36 persistent_budget_backoff_and_attention", () => {
  it("retryable delays for attempts 1..20 and attention from 15", () => {
    let rec: FailureLedgerRecord | null = null;
    const delays: number[] = [];
    const attention: boolean[] = [];
    for (let attempt = 1; attempt <= 20; attempt++) {
      rec = recordFailure(rec, { target: "t", endpoint: "http://w1", error: "temporary storage failure", now: 0 });
      expect(rec.consecutive_attempts).toBe(attempt);
      delays.push(rec.next_retry_ms / 1000);
      attention.push(rec.needs_attention);
    }
    expect(delays).toEqual([
      2, 2, 30, 60, 120, 240, 480, 900, 900, 900, 900, 900, 900, 900, 3600, 3600, 3600, 3600, 3600, 3600,
    ]);
    expect(attention.map((a, i) => a === i + 1 >= 15)).toEqual(Array(20).fill(true));
  });

  it("not found at the first attempt needs attention, retry at 3,601,000", () => {
    const rec = recordFailure(null, {
      target: "t",
      endpoint: "master:compact",
      error: "Not found: /data/1.lance",
      now: 1000,
    });
    expect(rec).toMatchObject({
      class: "data_or_configuration",
      needs_attention: true,
      next_retry_ms: 3_601_000,
      consecutive_attempts: 1,
    });
  });

  it("ownership_unresolved backs off 30, 60, 120, 240, 300, 300 with attention", () => {
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffSecs("ownership_unresolved", a))).toEqual([30, 60, 120, 240, 300, 300]);
    expect([1, 3, 14, 15].map((a) => backoffSecs("deadline", a))).toEqual([2, 30, 900, 3600]);
  });

  it("truncates last_error to 4,096 characters", () => {
    const rec = recordFailure(null, { target: "t", endpoint: "e", error: "x".repeat(5000), now: 0 });
    expect(rec.last_error).toHaveLength(4096);
  });
});

describe("§9.1 classification (first match wins)", () => {
  const cases: Array<[string, string]> = [
    ["Ownership unresolved for shard s1", "ownership_unresolved"],
    ["ownership unresolved: HTTP 401", "ownership_unresolved"],
    ["request failed: status 401", "data_or_configuration"],
    ["HTTP/1.1 403 Forbidden", "data_or_configuration"],
    ["status code: 401 [LC_STALE_PREPARATION]", "data_or_configuration"], // a code never launders auth
    ["status=401e-005c request", "retryable"], // digits inside an id are not a status
    ["req id status=401e-005c timed out", "deadline"],
    ["path /v1/status/401 failed", "retryable"],
    ["x-status: 401", "retryable"], // marker preceded by '-'
    ["status_code=403,", "data_or_configuration"],
    ["statuscode '401'", "data_or_configuration"],
    ["compaction source fragment changed; reprepare [LC_STALE_PREPARATION]", "retryable"],
    ["invalid user input: index dataset or schema changed; reprepare", "retryable"],
    ["invalid user input: index metadata changed; reprepare [lc_stale_preparation]", "retryable"],
    [
      "invalid user input: compaction dataset or schema changed; reprepare, crates/lance-context-core/src/store_base.rs:812:17",
      "retryable",
    ],
    [
      "invalid user input: index source fragment changed; reprepare, crates/lance-context-core/src/store_base.rs:1:2 [LC_STALE_PREPARATION]",
      "retryable",
    ],
    ["invalid user input: index source fragment changed; reprepare soon", "data_or_configuration"],
    ["invalid user input: something else", "data_or_configuration"],
    ["schema mismatch in column a", "data_or_configuration"],
    ["Permission denied (os error 13)", "data_or_configuration"],
    ["AccessDenied: bucket", "data_or_configuration"],
    ["protocol error", "data_or_configuration"],
    ["upstream returned status 503", "retryable"],
    ["http: 504 gateway timeout", "retryable"],
    ["status 5030 timeout", "deadline"],
    ["deadline exceeded", "deadline"],
    ["operation timed out", "deadline"],
    ["connect Timeout", "deadline"],
    ["temporary storage failure", "retryable"],
    ["", "retryable"],
  ];
  it.each(cases)("%j → %s", (text, cls) => {
    expect(classifyFailure(text)).toBe(cls);
  });

  it("extracts only explicit statuses", () => {
    expect(explicitHttpStatuses('HTTP/2 429 then status(500) and Status Code "502"')).toEqual([429, 500, 502]);
    expect(explicitHttpStatuses("status=401e-005c id 403 at 2024-04-01")).toEqual([]);
    expect(explicitHttpStatuses("https://h/status 404")).toEqual([]);
    expect(explicitHttpStatuses("got http 404;")).toEqual([404]);
    expect(explicitHttpStatuses("éstatus 401 and status: 401. and status\t403")).toEqual([403]);
  });
});

describe("read-time correction", () => {
  const stored: FailureLedgerRecord = {
    target: "t",
    endpoint: "master:index_id",
    consecutive_attempts: 4,
    class: "data_or_configuration",
    last_error: "invalid user input: index metadata changed; reprepare",
    last_failure_ms: 10_000,
    next_retry_ms: 3_610_000,
    needs_attention: true,
  };
  it("softens a stale data_or_configuration record whose text is now retryable", () => {
    const { record, corrected } = correctOnRead(stored);
    expect(corrected).toBe(true);
    expect(record).toEqual({ ...stored, class: "retryable", needs_attention: false, next_retry_ms: 70_000 });
  });
  it("never hardens and leaves true data errors alone", () => {
    expect(correctOnRead({ ...stored, class: "retryable", last_error: "corrupt file" }).corrected).toBe(false);
    expect(correctOnRead({ ...stored, last_error: "corrupt file" }).corrected).toBe(false);
  });
  it("blocks until next_retry_ms, named by attention", () => {
    expect(ledgerBlock(stored, 3_609_999)).toBe("needs_attention");
    expect(ledgerBlock({ ...stored, needs_attention: false }, 5)).toBe("failure_backoff");
    expect(ledgerBlock(stored, 3_610_000)).toBeNull();
  });
});
