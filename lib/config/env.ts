// console-api.md "Configuration": the environment, validated once at start-up. A bad
// value fails with ONE line naming the variable (the idea of t3's env module, STYLE.md).
import { z } from "zod";
import { ConfigError, parseBlock } from "./config-error";
import { loadSsoEnv, resetSsoEnv } from "./sso-env";

export { ConfigError };

const urlSchema = z
  .string()
  .trim()
  .refine((s) => {
    try {
      const u = new URL(s);
      return (
        (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "" && u.pathname === "/" && !u.search
      );
    } catch {
      return false;
    }
  }, "must be an http(s)://host:port URL");

const commaList = (s: string) =>
  s
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");

const optionalTextSchema = z
  .string()
  .optional()
  .transform((s) => (s === undefined || s === "" ? undefined : s));

const memoryMibSchema = z
  .string()
  .optional()
  .transform((s) => (s === undefined || s.trim() === "" ? "1024" : s.trim()))
  .refine((s) => /^\d+$/.test(s), "must be a positive integer (MiB)")
  .transform(Number)
  .pipe(z.number().int().min(64, "must be 64..1048576 (MiB)").max(1_048_576, "must be 64..1048576 (MiB)"));

/**
 * CONSOLE_MEMORY_MIB of `source` (MiB), or the default for a value `loadEnv` would refuse (a
 * server given one exits at start, whatever flags it was started with).
 */
export function memoryBudgetMib(source: Record<string, string | undefined>): number {
  const parsed = memoryMibSchema.safeParse(source.CONSOLE_MEMORY_MIB);
  return parsed.success ? parsed.data : memoryMibSchema.parse(undefined);
}

const envSchema = z.object({
  ETCD_ENDPOINTS: z
    .string()
    .default("http://127.0.0.1:2379")
    .transform(commaList)
    .pipe(
      z
        .array(urlSchema)
        .min(1, "needs at least one URL")
        .refine(
          (hosts) => hosts.every((h) => h.startsWith("https:")) || hosts.every((h) => h.startsWith("http:")),
          "cannot mix http and https URLs",
        ),
    ),
  ETCD_PREFIX: z
    .string()
    .default("/lance-context/master")
    .transform((s) => s.trim().replace(/\/+$/, ""))
    .pipe(z.string().min(1, "must not be empty (or only '/')")),
  ETCD_USERNAME: optionalTextSchema,
  ETCD_PASSWORD: optionalTextSchema,
  ETCD_CA_FILE: optionalTextSchema,
  ETCD_CERT_FILE: optionalTextSchema,
  ETCD_KEY_FILE: optionalTextSchema,
  PORT: z
    .string()
    .default("3000")
    .refine((s) => /^\d+$/.test(s.trim()), "must be an integer")
    .transform((s) => Number(s.trim()))
    .pipe(z.number().int().min(1, "must be 1..65535").max(65535, "must be 1..65535")),
  CONSOLE_ADMIN_TOKENS: z.string().default("").transform(commaList),
  CONSOLE_VIEWER_TOKENS: z.string().default("").transform(commaList),
  // docs/operations.md: 32+ random characters, the same on every replica. Unset (or empty)
  // = one random secret per process; a short or blank one is refused, not silently replaced.
  CONSOLE_SESSION_SECRET: z
    .string()
    .optional()
    .refine(
      (s) => s === undefined || s === "" || s.trim() !== "",
      "must not be blank (unset it for a per-process secret)",
    )
    .refine((s) => s === undefined || s.trim() === "" || s.trim().length >= 32, "must be at least 32 characters")
    .transform((s) => sessionSecretOf({ CONSOLE_SESSION_SECRET: s })),
  // console-api.md "Overload and memory": the held and pinned views, the change log and the
  // caches stay within it (lib/live/memory-budget.ts); sizing in docs/operations.md
  CONSOLE_MEMORY_MIB: memoryMibSchema,
  // console-api.md "Overload and memory": where reads of other moments and diffs are answered
  // (lib/live/offload-pool.ts): `worker` (default), a worker thread; `thread`, the request thread
  CONSOLE_OFFLOAD: z
    .string()
    .optional()
    .transform((s) => (s === undefined || s.trim() === "" ? "worker" : s.trim()))
    .pipe(z.enum(["worker", "thread"], "must be worker or thread")),
  // console-api.md "Overload and memory": the reads asked most answered by the custom server
  // straight from the engine (lib/engine/direct.ts), `on` (default); `off`, through Next's routing
  CONSOLE_DIRECT_READS: z
    .string()
    .optional()
    .transform((s) => (s === undefined || s.trim() === "" ? "on" : s.trim()))
    .pipe(z.enum(["on", "off"], "must be on or off")),
});

export interface ConsoleEnv {
  etcd: {
    endpoints: string[];
    prefix: string;
    auth?: { username: string; password: string };
    tls?: { caFile: string; certFile?: string; keyFile?: string };
  };
  port: number;
  adminTokens: string[];
  viewerTokens: string[];
  /** CONSOLE_SESSION_SECRET, or null for a per-process random secret */
  sessionSecret: string | null;
  /** CONSOLE_MEMORY_MIB in bytes */
  memoryBudgetBytes: number;
  /** CONSOLE_OFFLOAD: where other moments are answered */
  offload: "worker" | "thread";
  /** CONSOLE_DIRECT_READS: the reads asked most answered without Next's routing */
  directReads: boolean;
}

/** CONSOLE_SESSION_SECRET as the session code uses it (trimmed; unset or empty → null). */
export function sessionSecretOf(source: Record<string, string | undefined>): string | null {
  const secret = source.CONSOLE_SESSION_SECRET?.trim();
  return secret ? secret : null;
}

/** Validates `source` (default `process.env`); throws ConfigError naming the first bad variable. */
export function loadEnv(source: Record<string, string | undefined> = process.env): ConsoleEnv {
  loadSamplerEnv(source); // the sampler, takeover and journal blocks below are checked at start-up with the rest
  loadTakeoverEnv(source);
  loadJournalEnv(source);
  loadSsoEnv(source); // single sign-on and team rights: the OIDC variables and the rules file
  const e = parseBlock(envSchema, source);
  if ((e.ETCD_USERNAME === undefined) !== (e.ETCD_PASSWORD === undefined)) {
    throw new ConfigError(
      e.ETCD_USERNAME === undefined ? "ETCD_USERNAME" : "ETCD_PASSWORD",
      "must be set together with its pair",
    );
  }
  if ((e.ETCD_CERT_FILE === undefined) !== (e.ETCD_KEY_FILE === undefined)) {
    throw new ConfigError(
      e.ETCD_CERT_FILE === undefined ? "ETCD_CERT_FILE" : "ETCD_KEY_FILE",
      "must be set together with its pair",
    );
  }
  if (e.ETCD_CERT_FILE !== undefined && e.ETCD_CA_FILE === undefined) {
    throw new ConfigError("ETCD_CA_FILE", "is required when ETCD_CERT_FILE is set");
  }
  return {
    etcd: {
      endpoints: e.ETCD_ENDPOINTS,
      prefix: e.ETCD_PREFIX,
      auth:
        e.ETCD_USERNAME !== undefined && e.ETCD_PASSWORD !== undefined
          ? { username: e.ETCD_USERNAME, password: e.ETCD_PASSWORD }
          : undefined,
      tls:
        e.ETCD_CA_FILE !== undefined
          ? { caFile: e.ETCD_CA_FILE, certFile: e.ETCD_CERT_FILE, keyFile: e.ETCD_KEY_FILE }
          : undefined,
    },
    port: e.PORT,
    adminTokens: e.CONSOLE_ADMIN_TOKENS,
    viewerTokens: e.CONSOLE_VIEWER_TOKENS,
    sessionSecret: e.CONSOLE_SESSION_SECRET,
    memoryBudgetBytes: e.CONSOLE_MEMORY_MIB * 1_048_576,
    offload: e.CONSOLE_OFFLOAD,
    directReads: e.CONSOLE_DIRECT_READS === "on",
  };
}

let cached: ConsoleEnv | undefined;

/** The process's validated configuration (validated once, then memoized). */
export function consoleEnv(): ConsoleEnv {
  cached ??= loadEnv();
  return cached;
}

/** Forget the memoized configuration (tests that change process.env). */
export function resetConsoleEnv(): void {
  cached = undefined;
  cachedSampler = undefined;
  cachedTakeover = undefined;
  cachedJournal = undefined;
  resetSsoEnv();
}

// ---------------------------------------------------------------------------------------
// The elected sampler (lib/live/sampler.ts): shadow history and the revision clock.
// A bad value is refused like any other variable, never replaced by the default.

const positiveInt = (name: string, fallback: number, max: number) =>
  z
    .string()
    .optional()
    .transform((s) => (s === undefined || s.trim() === "" ? String(fallback) : s.trim()))
    .refine((s) => /^\d+$/.test(s), "must be a positive integer")
    .transform(Number)
    .pipe(z.number().int().min(1, `must be 1..${max}`).max(max, `must be 1..${max}`))
    .describe(name);

const samplerEnvSchema = z.object({
  /** shadow-history period (ms) */
  CONSOLE_SHADOW_SAMPLE_MS: positiveInt("CONSOLE_SHADOW_SAMPLE_MS", 60_000, 86_400_000),
  /** sampler election lease TTL (s) */
  CONSOLE_SAMPLER_TTL_SECS: positiveInt("CONSOLE_SAMPLER_TTL_SECS", 10, 3600),
  /** `off` runs no sampler on this replica */
  CONSOLE_SHADOW_SAMPLER: z
    .string()
    .optional()
    .transform((s) => (s ?? "on").trim() || "on")
    .pipe(z.enum(["on", "off"], "must be on or off")),
});

export interface SamplerEnv {
  enabled: boolean;
  shadowSampleMs: number;
  electionTtlSecs: number;
}

export function loadSamplerEnv(source: Record<string, string | undefined> = process.env): SamplerEnv {
  const e = parseBlock(samplerEnvSchema, source);
  return {
    enabled: e.CONSOLE_SHADOW_SAMPLER === "on",
    shadowSampleMs: e.CONSOLE_SHADOW_SAMPLE_MS,
    electionTtlSecs: e.CONSOLE_SAMPLER_TTL_SECS,
  };
}

let cachedSampler: SamplerEnv | undefined;

/** The sampler's validated configuration (memoized like consoleEnv). */
export function samplerEnv(): SamplerEnv {
  cachedSampler ??= loadSamplerEnv();
  return cachedSampler;
}

// ---------------------------------------------------------------------------------------
// The takeover gate (console-api.md "The takeover gate and the canary evidence").

const takeoverEnvSchema = z.object({
  /** the lowest master version (semver) that applies policies; unset: no master does */
  CONSOLE_POLICY_AWARE_VERSION: z
    .string()
    .optional()
    .transform((s) => (s === undefined || s.trim() === "" ? null : s.trim()))
    .refine(
      (s) => s === null || /^v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/.test(s),
      "must be a semantic version such as 0.43.0",
    ),
  /** days of shadow observations a table needs before `mode: planner` */
  CONSOLE_TAKEOVER_MIN_DAYS: positiveInt("CONSOLE_TAKEOVER_MIN_DAYS", 7, 365),
});

export interface TakeoverEnv {
  policyAwareVersion: string | null;
  minDays: number;
}

export function loadTakeoverEnv(source: Record<string, string | undefined> = process.env): TakeoverEnv {
  const e = parseBlock(takeoverEnvSchema, source);
  return {
    policyAwareVersion: e.CONSOLE_POLICY_AWARE_VERSION,
    minDays: e.CONSOLE_TAKEOVER_MIN_DAYS,
  };
}

let cachedTakeover: TakeoverEnv | undefined;

/** The takeover gate's validated configuration (memoized like consoleEnv). */
export function takeoverEnv(): TakeoverEnv {
  cachedTakeover ??= loadTakeoverEnv();
  return cachedTakeover;
}

// ---------------------------------------------------------------------------------------
// The decision journal the elected sampler writes (lib/live/journal.ts; console-api.md
// "The decision journal"; sizing in docs/operations.md "Decision journal").

const journalEnvSchema = z.object({
  /** `off`: the sampler keeps no journal (history answers by re-planning, as before) */
  CONSOLE_JOURNAL: z
    .string()
    .optional()
    .transform((s) => (s ?? "on").trim() || "on")
    .pipe(z.enum(["on", "off"], "must be on or off")),
  /** how long chunks are kept (hours; default 7 days) */
  CONSOLE_JOURNAL_RETENTION_HOURS: positiveInt("CONSOLE_JOURNAL_RETENTION_HOURS", 168, 24 * 366),
  /** the byte cap (MiB of stored chunks); past it the oldest segments go first */
  CONSOLE_JOURNAL_MAX_MIB: positiveInt("CONSOLE_JOURNAL_MAX_MIB", 256, 8192),
  /** at most one journal write per this period (ms) */
  CONSOLE_JOURNAL_FLUSH_MS: positiveInt("CONSOLE_JOURNAL_FLUSH_MS", 5000, 600_000),
  /** the evaluation cadence between etcd changes (ms): time-driven changes are entered within it */
  CONSOLE_JOURNAL_EVAL_MS: positiveInt("CONSOLE_JOURNAL_EVAL_MS", 1000, 600_000),
  /** a checkpoint of every table at least this often (ms) */
  CONSOLE_JOURNAL_CHECKPOINT_MS: positiveInt("CONSOLE_JOURNAL_CHECKPOINT_MS", 1_800_000, 86_400_000),
  /** the forecast journal's byte cap (MiB of stored chunks under P/console/forecasts/; kept as long as the journal) */
  CONSOLE_FORECAST_MAX_MIB: positiveInt("CONSOLE_FORECAST_MAX_MIB", 64, 8192),
});

export interface JournalEnv {
  enabled: boolean;
  retentionMs: number;
  maxBytes: number;
  flushMs: number;
  evalMs: number;
  checkpointMs: number;
  forecastMaxBytes: number;
}

export function loadJournalEnv(source: Record<string, string | undefined> = process.env): JournalEnv {
  const e = parseBlock(journalEnvSchema, source);
  return {
    enabled: e.CONSOLE_JOURNAL === "on",
    retentionMs: e.CONSOLE_JOURNAL_RETENTION_HOURS * 3_600_000,
    maxBytes: e.CONSOLE_JOURNAL_MAX_MIB * 1_048_576,
    flushMs: e.CONSOLE_JOURNAL_FLUSH_MS,
    evalMs: e.CONSOLE_JOURNAL_EVAL_MS,
    checkpointMs: e.CONSOLE_JOURNAL_CHECKPOINT_MS,
    forecastMaxBytes: e.CONSOLE_FORECAST_MAX_MIB * 1_048_576,
  };
}

let cachedJournal: JournalEnv | undefined;

/** The journal's validated configuration (memoized like consoleEnv). */
export function journalEnv(): JournalEnv {
  cachedJournal ??= loadJournalEnv();
  return cachedJournal;
}
