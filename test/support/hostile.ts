// Hostile etcd records for the reliability fuzz test: deterministic from a seed,
// spread over every key family of scheduler-model.md §1, each broken in one of the ways a
// real prefix can surprise a reader: random bytes, malformed JSON, wrong types, numbers
// beyond 2^53, negative values, deep nesting, values near etcd's 1.5 MiB request limit,
// unknown `v`, undecodable hex keys. Pure data: writing them is the caller's job.

type HostileKind =
  | "random_bytes"
  | "bad_json"
  | "wrong_type"
  | "huge_number"
  | "negative"
  | "deep_object"
  | "near_limit"
  | "unknown_version"
  | "bad_key"
  | "json_scalar";

export interface HostileRecord {
  key: string | Buffer;
  value: Buffer;
  /** the key family (first path segment after P/, e.g. "demand-events") */
  family: string;
  kind: HostileKind;
  /**
   * True when no reader may accept the record, whatever its schema: its key is undecodable
   * in a hex-keyed family, or its value is not a JSON object in a JSON-valued family.
   */
  definitelyBad: boolean;
}

/** mulberry32, the simulator's seedable PRNG (deterministic across platforms). */
import { rng as prng } from "@/lib/sim/seed-kv";

const hex = (s: string) => Buffer.from(s, "utf8").toString("hex");

interface Family {
  name: string;
  /** key suffix after `P/<name>/` for target `t` and index `i`; null for singleton keys */
  key: (target: string, i: number) => string;
  /** whether the key's first segment is hex(target) */
  hexKeyed: boolean;
  /** path segments after `P/<name>/` (1: `<hex>`, 2: `<hex>/<id>`) */
  segments: 1 | 2;
  /** JSON object value (false: bare string such as leader-token, claims, dedupe) */
  json: boolean;
  /** a well-formed record to mutate */
  template: (target: string, i: number) => Record<string, unknown>;
}

const NOW = 1_767_225_600_000; // 2026-01-01, fixed so the generator is deterministic
const demandEvent = (t: string, i: number) => ({
  v: 1,
  shard: `shard-${i}`,
  sealed_through: 100 + i,
  sealed_bytes_through: 4096,
  merged_through: 90,
  flushed_at_ms: NOW - 60_000,
  writer_epoch: 1,
  source: "writer",
  sealed_times: { "91": NOW - 120_000 },
});
const task = (t: string, i: number) => ({
  id: `task-${i}`,
  kind: "merge_wal",
  target: t,
  state: "queued",
  enqueued_at: NOW - 1000,
});

const FAMILIES: Family[] = [
  {
    name: "demand-events",
    key: (t, i) => `${hex(t)}/shard-${i}`,
    segments: 2,
    hexKeyed: true,
    json: true,
    template: demandEvent,
  },
  {
    name: "demand",
    key: (t) => hex(t),
    segments: 1,
    hexKeyed: true,
    json: true,
    template: () => ({
      v: 1,
      shards: {
        s1: {
          sealed: { epoch: 1, value: 50 },
          merged: { epoch: 1, value: 40 },
          sealed_bytes: 10,
          sealed_times: { "41": NOW },
        },
      },
      observed_revision: 3,
      updated_ms: NOW,
    }),
  },
  {
    name: "executors",
    key: (t, i) => `exec-hostile-${i}`,
    segments: 1,
    hexKeyed: false,
    json: true,
    template: (t, i) => ({
      v: 1,
      kind: "resident_master",
      instance: `exec-hostile-${i}`,
      version: "0.0.0",
      kinds: ["merge_wal"],
      slots_total: { merge_wal: 2 },
      bytes_total: 1 << 30,
      bytes_free_sample: 1 << 29,
      draining: false,
      heartbeat_ms: NOW,
    }),
  },
  {
    name: "assignments",
    key: (t, i) => `${hex(t)}/unit-${i}`,
    segments: 2,
    hexKeyed: true,
    json: true,
    template: (t, i) => ({
      v: 1,
      unit_id: `unit-${i}`,
      kind: "merge_wal",
      target: t,
      needs_write_turn: true,
      executor: "exec-hostile-0",
      planner_token: "tok",
      reserved_slots: { merge_wal: 1 },
      reserved_bytes: 1024,
      state: "shadow",
      created_ms: NOW,
      bind_deadline_ms: NOW + 30_000,
    }),
  },
  { name: "tasks", key: (t, i) => `task-hostile-${i}`, segments: 1, hexKeyed: false, json: true, template: task },
  { name: "queue", key: (t, i) => `task-hostile-${i}`, segments: 1, hexKeyed: false, json: true, template: task },
  {
    name: "running",
    key: (t, i) => `task-hostile-${i}`,
    segments: 1,
    hexKeyed: false,
    json: true,
    template: (t, i) => ({ ...task(t, i), state: "running", started_at: NOW }),
  },
  {
    name: "policies",
    key: (t) => hex(t),
    segments: 1,
    hexKeyed: true,
    json: true,
    template: () => ({ v: 1, mode: "legacy", merge: { min_generations: 4 } }),
  },
  {
    name: "merge-failures",
    key: (t, i) => `${hex(t)}/${hex(`http://worker-${i}:8080`)}`,
    segments: 2,
    hexKeyed: true,
    json: true,
    template: (t, i) => ({
      target: t,
      endpoint: `http://worker-${i}:8080`,
      consecutive_attempts: 2,
      class: "retryable",
      last_error: "timeout",
      last_failure_ms: NOW,
      next_retry_ms: NOW + 2000,
      needs_attention: false,
    }),
  },
  {
    name: "cooldown",
    key: (t) => `compact/${hex(t)}`,
    segments: 2,
    hexKeyed: false, // `<kind-label>/<hex>`: the hex is the second segment (bad keys are still generated)
    json: true,
    template: (t) => ({ kind: "compact", target: t, failures: 4, until_ms: NOW + 600_000, last_error: "boom" }),
  },
  {
    name: "merge-executions",
    key: (t) => hex(t),
    segments: 1,
    hexKeyed: true,
    json: true,
    template: (t, i) => ({
      id: `exec-${i}`,
      target: t,
      endpoint: "http://worker:8080",
      instance: "m1",
      timeout_secs: 600,
      queue_timeout_secs: 600,
      idle_timeout_secs: 600,
      phase: "running",
      reclaimed: false,
      error: null,
      protocol: 2,
    }),
  },
  {
    name: "merge-progress",
    key: (t, i) => `exec-${i}`,
    segments: 1,
    hexKeyed: false,
    json: true,
    template: () => ({ sequence: 7 }),
  },
  {
    name: "merge-work",
    key: (t, i) => `exec-${i}`,
    segments: 1,
    hexKeyed: false,
    json: true,
    template: () => ({ sequence: 7, rows: 10 }),
  },
  {
    name: "compact-noops",
    key: (t) => hex(t),
    segments: 1,
    hexKeyed: true,
    json: true,
    template: (t) => ({ uri: `s3://b/${t}`, version: 3, options: {} }),
  },
  {
    name: "repairs",
    key: (t, i) => `${hex(t)}/${NOW + i}`,
    segments: 2,
    hexKeyed: true,
    json: true,
    template: (t, i) => ({
      target: t,
      repaired_at_ms: NOW + i,
      read_version: 1,
      committed_version: 2,
      triggered_by: "repair",
      dropped: [],
    }),
  },
  {
    name: "leader",
    key: () => "",
    segments: 1,
    hexKeyed: false,
    json: true,
    template: () => ({ v: 1, token: "tok", instance: "m1", since_ms: NOW }),
  },
  {
    name: "dedupe",
    key: (t) => `merge-wal/${hex(t)}`,
    segments: 2,
    hexKeyed: false,
    json: false,
    template: () => ({}),
  },
  { name: "target-locks", key: (t) => hex(t), segments: 1, hexKeyed: true, json: false, template: () => ({}) },
  {
    name: "claims",
    key: (t, i) => `task-hostile-${i}`,
    segments: 1,
    hexKeyed: false,
    json: false,
    template: () => ({}),
  },
  {
    name: "console/shadow-history",
    key: (t, i) => String(NOW - i * 60_000).padStart(16, "0"),
    segments: 1,
    hexKeyed: false,
    json: true,
    template: (t, i) => ({
      at_ms: NOW - i * 60_000,
      revision: 10,
      outcomes: { discovery_miss: 0, queued_only: 0, running: 0, placement_gap: 0, phantom_task: 0 },
      disagreements: 0,
    }),
  },
  {
    name: "unknown-family",
    key: (t, i) => `x-${i}`,
    segments: 1,
    hexKeyed: false,
    json: true,
    template: () => ({ v: 1 }),
  },
];

const BAD_JSON = [
  '{"v":1,"shard":',
  "{'v':1}",
  "NaN",
  "{v:1}",
  '{"v":1}}',
  "[1,2",
  "\u0000",
  "",
  "undefined",
  '{"a":"\\x"}',
  '{"v":01}',
];
const HUGE_NUMBERS = [
  "18446744073709551616",
  "9007199254740993",
  "1e400",
  "-1e400",
  "123456789012345678901234567890",
  "1.7976931348623157e309",
];
const WEIRD_VERSIONS: unknown[] = [2, 99, -1, "1", 1.5, 4294967296, true, [1], { v: 1 }];
const WRONG_VALUES: unknown[] = ["12", null, true, [], {}, [1, 2], { value: 1 }, "", "NaN", -0.5, 1e-300];

/** A deterministic target name: plain, unicode, or 1..600 chars (some beyond the 512 cap). */
function targetName(rand: () => number, i: number): string {
  const r = rand();
  if (r < 0.7) return `hostile/table-${i}`;
  if (r < 0.8) return `hostile/ünïcødé-表-${i}`;
  if (r < 0.9) return `generic:hostile-${i}`;
  return `hostile/${"x".repeat(500 + Math.floor(rand() * 100))}-${i}`;
}

function randomBytes(rand: () => number, n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = Math.floor(rand() * 256);
  return b;
}

/** Replaces one (possibly nested) leaf of `obj` via `mutate`, chosen by `rand`. */
function mutateLeaf(
  obj: Record<string, unknown>,
  rand: () => number,
  mutate: (old: unknown) => unknown,
  numericOnly: boolean,
): Record<string, unknown> {
  const paths: string[][] = [];
  const walk = (o: unknown, path: string[]) => {
    if (o && typeof o === "object" && !Array.isArray(o)) {
      for (const [k, v] of Object.entries(o)) walk(v, [...path, k]);
    } else if (!numericOnly || typeof o === "number") paths.push(path);
  };
  walk(obj, []);
  if (paths.length === 0) return obj;
  const path = paths[Math.floor(rand() * paths.length)];
  const copy = structuredClone(obj);
  let o = copy as Record<string, unknown>;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string, unknown>;
  o[path[path.length - 1]] = mutate(o[path[path.length - 1]]);
  return copy;
}

/** JSON text with a raw numeric literal spliced into one numeric leaf (beyond what JSON.stringify can write). */
function withRawNumber(obj: Record<string, unknown>, rand: () => number, literal: string): string {
  const marker = "__HOSTILE_NUMBER__";
  const mutated = mutateLeaf(obj, rand, () => marker, true);
  const text = JSON.stringify(mutated);
  return text.includes(`"${marker}"`) ? text.replace(`"${marker}"`, literal) : text.replace(/^\{/, `{"n":${literal},`);
}

function deepValue(rand: () => number): string {
  const depth = 1_000 + Math.floor(rand() * 19_000);
  return rand() < 0.5 ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
}

const KIND_WEIGHTS: [HostileKind, number][] = [
  ["random_bytes", 12],
  ["bad_json", 12],
  ["wrong_type", 18],
  ["huge_number", 12],
  ["negative", 12],
  ["deep_object", 1],
  ["unknown_version", 14],
  ["bad_key", 12],
  ["json_scalar", 5],
];
const WEIGHT_TOTAL = KIND_WEIGHTS.reduce((s, [, w]) => s + w, 0);

function pickKind(rand: () => number): HostileKind {
  let r = rand() * WEIGHT_TOTAL;
  for (const [k, w] of KIND_WEIGHTS) {
    r -= w;
    if (r < 0) return k;
  }
  return "wrong_type";
}

type BadFor = "all" | "single" | "double" | "none";

/** An undecodable key suffix, and for which key shapes it is certainly invalid. */
function badKey(rand: () => number, i: number): { suffix: string | Buffer; badFor: BadFor } {
  const options: { suffix: string | Buffer; badFor: BadFor }[] = [
    { suffix: `zz${i}/shard`, badFor: "all" }, // not hex
    { suffix: `abc${i % 10}/s`.slice(0, 3) + `/s${i}`, badFor: "all" }, // odd length
    { suffix: "fffe" + `${(i % 256).toString(16).padStart(2, "0")}/s`, badFor: "single" }, // hex of invalid UTF-8
    { suffix: "", badFor: "all" }, // empty
    { suffix: hex(`t${i}`), badFor: "double" }, // missing the second segment
    { suffix: "/" + hex(`double-slash-${i}`), badFor: "all" },
    { suffix: hex("x".repeat(600)) + `/${i}`, badFor: "single" }, // a 600-char target
    {
      suffix: Buffer.concat([Buffer.from(hex(`t${i}`) + "/"), Buffer.from([0xff, 0xfe, 0x00, 0x80])]),
      badFor: "single",
    }, // raw non-UTF-8 bytes
  ];
  return options[Math.floor(rand() * options.length)];
}

/**
 * `count` hostile records under `prefix` (P), deterministic from `seed`. `nearLimit`
 * records of ~`nearLimitBytes` each go to distinct families (so no 8-key page of one
 * family holds two of them and etcd's 4 MiB response cap stays reachable by paging).
 */
export function hostileRecords(opts: {
  prefix: string;
  count: number;
  seed: number;
  nearLimit?: number;
  nearLimitBytes?: number;
}): HostileRecord[] {
  const rand = prng(opts.seed);
  const nearLimit = opts.nearLimit ?? 3;
  const nearLimitBytes = opts.nearLimitBytes ?? 1_500_000;
  const out: HostileRecord[] = [];
  const jsonFamilies = FAMILIES.filter((f) => f.json && f.name !== "leader");
  const seen = new Set<string>();
  for (let i = 0; i < opts.count; i++) {
    const nearLimitHere = i < nearLimit;
    const family = nearLimitHere
      ? jsonFamilies[i % jsonFamilies.length]
      : FAMILIES[Math.floor(rand() * FAMILIES.length)];
    const kind: HostileKind = nearLimitHere ? "near_limit" : pickKind(rand);
    const target = targetName(rand, i);
    // one hostile fleet default policy: a reader must fall back, never fail every table
    const bad = kind === "bad_key" ? badKey(rand, i) : null;
    const suffix = bad
      ? bad.suffix
      : family.name === "policies" && !seen.has(Buffer.from(`${opts.prefix}/policies/_default`).toString("hex"))
        ? "_default"
        : family.key(target, i);
    const base = `${opts.prefix}/${family.name}`;
    let key: string | Buffer =
      typeof suffix === "string"
        ? suffix === "" && family.name === "leader"
          ? base
          : `${base}/${suffix}`
        : Buffer.concat([Buffer.from(`${base}/`), suffix]);
    // etcd refuses a txn that puts one key twice: a repeated key gets a distinct tail
    const id = Buffer.from(key).toString("hex");
    if (seen.has(id)) key = Buffer.concat([Buffer.from(key), Buffer.from(`/dup-${i}`)]);
    seen.add(Buffer.from(key).toString("hex"));
    const template = family.template(target, i);
    let text: string | Buffer;
    switch (kind) {
      case "random_bytes":
        text = randomBytes(rand, 1 + Math.floor(rand() * 256));
        break;
      case "bad_json":
        text = BAD_JSON[Math.floor(rand() * BAD_JSON.length)];
        break;
      case "wrong_type":
        text = JSON.stringify(
          mutateLeaf(template, rand, () => WRONG_VALUES[Math.floor(rand() * WRONG_VALUES.length)], false),
        );
        break;
      case "huge_number":
        text = withRawNumber(template, rand, HUGE_NUMBERS[Math.floor(rand() * HUGE_NUMBERS.length)]);
        break;
      case "negative":
        text = JSON.stringify(
          mutateLeaf(template, rand, (old) => (rand() < 0.5 ? -1 : -Math.abs(Number(old) || 1) * 1e6), true),
        );
        break;
      case "deep_object":
        text = rand() < 0.5 ? deepValue(rand) : JSON.stringify(template).replace(/^\{/, `{"deep":${deepValue(rand)},`);
        break;
      case "near_limit":
        text = JSON.stringify({
          ...template,
          padding: "p".repeat(Math.max(0, nearLimitBytes - JSON.stringify(template).length - 20)),
        });
        break;
      case "unknown_version":
        text = JSON.stringify({ ...template, v: WEIRD_VERSIONS[Math.floor(rand() * WEIRD_VERSIONS.length)] });
        break;
      case "bad_key":
        text = JSON.stringify(template);
        break;
      case "json_scalar":
        text = [`"a string"`, "42", "null", "true", "[]", `[${JSON.stringify(template)}]`][Math.floor(rand() * 6)];
        break;
    }
    const value = typeof text === "string" ? Buffer.from(text, "utf8") : text;
    out.push({
      key,
      value,
      family: family.name,
      kind,
      definitelyBad: isDefinitelyBad(family, kind, value, bad?.badFor ?? "none"),
    });
  }
  return out;
}

function isDefinitelyBad(family: Family, kind: HostileKind, value: Buffer, badFor: BadFor): boolean {
  if (kind === "bad_key")
    return (
      family.hexKeyed &&
      (badFor === "all" || (badFor === "single" ? family.segments === 1 : badFor === "double" && family.segments === 2))
    );
  if (!family.json) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value.toString("utf8"));
  } catch {
    return true;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return true;
  return false;
}

/** Counts of generated records by family and kind (for the test's report). */
export function tally(records: HostileRecord[]): Record<string, number> {
  const t: Record<string, number> = {};
  for (const r of records) t[`${r.family}:${r.kind}`] = (t[`${r.family}:${r.kind}`] ?? 0) + 1;
  return t;
}
