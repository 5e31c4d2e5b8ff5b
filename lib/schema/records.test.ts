import { describe, expect, it } from "vitest";
import {
  parseAssignment,
  parseExecution,
  parseHeartbeat,
  parseLeader,
  parseMergeProgress,
  parseMergeWorkReport,
  parseShardFailure,
  parseTaskCooldown,
  parseTaskRecord,
  matchingWorkReport,
} from "./index";

const heartbeat = {
  v: 1,
  kind: "resident_master",
  instance: "m1",
  version: "0.9.0",
  kinds: ["index_id", "repair", "compact", "merge_wal"],
  slots_total: { index_id: 4, repair: 4, compact: 1, merge_wal: 4 },
  bytes_total: 0,
  bytes_free_sample: 0,
  draining: false,
  heartbeat_ms: 1_700_000_000_000,
};
const assignment = {
  v: 1,
  unit_id: "u1",
  kind: "merge_wal",
  target: "t",
  needs_write_turn: true,
  executor: "m1",
  planner_token: "tok",
  reserved_slots: { merge_wal: 1 },
  reserved_bytes: 2_147_483_648,
  state: "shadow",
  created_ms: 1,
  bind_deadline_ms: 30_001,
};

describe("strict version families (heartbeat, assignment, leader)", () => {
  it("keeps v 1, reads absent v as 1, ignores v 0 and v 2", () => {
    expect(parseHeartbeat(JSON.stringify(heartbeat)).ok).toBe(true);
    const { v: _v, ...noV } = heartbeat;
    expect(parseHeartbeat(JSON.stringify(noV)).ok).toBe(true);
    expect(parseHeartbeat(JSON.stringify({ ...heartbeat, v: 0 }))).toMatchObject({
      ok: false,
      reason: "unknown_version",
    });
    expect(parseAssignment(JSON.stringify({ ...assignment, v: 2 }))).toMatchObject({
      ok: false,
      reason: "unknown_version",
    });
    expect(parseAssignment(JSON.stringify(assignment))).toMatchObject({
      ok: true,
      value: { state: "shadow", reserved_bytes: 2_147_483_648 },
    });
    expect(parseLeader('{"v":1,"token":"t","instance":"m1","since_ms":5}')).toEqual({
      ok: true,
      value: { v: 1, token: "t", instance: "m1", since_ms: 5 },
    });
  });
  it("rejects unknown task kinds, bad states and wrong types as schema", () => {
    expect(parseHeartbeat(JSON.stringify({ ...heartbeat, kinds: ["retire"] }))).toMatchObject({
      ok: false,
      reason: "schema",
    });
    expect(parseAssignment(JSON.stringify({ ...assignment, state: "gone" }))).toMatchObject({
      ok: false,
      reason: "schema",
    });
    expect(parseHeartbeat(JSON.stringify({ ...heartbeat, bytes_total: "0" }))).toMatchObject({
      ok: false,
      reason: "schema",
    });
    expect(parseHeartbeat("{")).toMatchObject({ ok: false, reason: "bad_json" });
  });
  it("accepts u64 values past 2^53 (read as the nearest number)", () => {
    const r = parseHeartbeat(
      JSON.stringify(heartbeat).replace('"bytes_total":0', '"bytes_total":18446744073709551615'),
    );
    expect(r.ok && r.value.bytes_total).toBe(2 ** 64);
  });
});

describe("legacy families", () => {
  it("task record with omitted optionals", () => {
    const r = parseTaskRecord('{"id":"01H","kind":"merge_wal","target":"t","state":"queued","enqueued_at":5}');
    expect(r).toEqual({
      ok: true,
      value: { id: "01H", kind: "merge_wal", target: "t", state: "queued", enqueued_at: 5, depends_on: [] },
    });
  });
  it("cooldown below threshold has until_ms null", () => {
    const r = parseTaskCooldown('{"kind":"compact","target":"t","failures":2,"until_ms":null,"last_error":"x"}');
    expect(r.ok && r.value.until_ms).toBeNull();
    expect(parseTaskCooldown('{"kind":"compact","target":"t","failures":-1}')).toMatchObject({
      ok: false,
      reason: "schema",
    });
  });
  it("shard failure and execution defaults", () => {
    const f = parseShardFailure(
      JSON.stringify({
        target: "t",
        endpoint: "master:compact",
        consecutive_attempts: 3,
        class: "retryable",
        last_error: "e",
        last_failure_ms: 1,
        next_retry_ms: 30_001,
        needs_attention: false,
      }),
    );
    expect(f.ok && f.value.consecutive_attempts).toBe(3);
    const e = parseExecution(
      '{"id":"e1","target":"t","endpoint":"http://w","instance":"m1","timeout_secs":60,"phase":"running","reclaimed":false,"error":null}',
    );
    expect(e).toMatchObject({ ok: true, value: { queue_timeout_secs: 600, idle_timeout_secs: 600, protocol: 0 } });
    expect(e.ok && e.value.maintenance).toBeUndefined();
  });
  it("work report is shown only when its sequence equals progress", () => {
    const p = parseMergeProgress('{"sequence":4}');
    const w = parseMergeWorkReport('{"sequence":4,"rows":10}');
    expect(p.ok && w.ok && matchingWorkReport(p.value, w.value)).toEqual({ sequence: 4, rows: 10 });
    const old = parseMergeWorkReport('{"sequence":3}');
    expect(p.ok && old.ok && matchingWorkReport(p.value, old.value)).toBeNull();
  });
});
