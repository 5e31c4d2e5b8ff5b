import { describe, expect, it } from "vitest";
import { ConfigError, loadEnv, loadJournalEnv, loadSamplerEnv, loadTakeoverEnv, memoryBudgetMib } from "./env";

const fails = (env: Record<string, string>, load: (env: Record<string, string>) => unknown = loadEnv) => {
  try {
    load(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as ConfigError).message;
  }
  throw new Error("expected a ConfigError");
};

describe("loadEnv (console-api.md Configuration)", () => {
  it("applies the documented defaults", () => {
    expect(loadEnv({})).toEqual({
      etcd: { endpoints: ["http://127.0.0.1:2379"], prefix: "/lance-context/master", auth: undefined, tls: undefined },
      port: 3000,
      adminTokens: [],
      viewerTokens: [],
      sessionSecret: null,
      memoryBudgetBytes: 1024 * 1_048_576,
      offload: "worker",
      directReads: true,
    });
  });

  it("CONSOLE_DIRECT_READS: the reads asked most answered without Next's routing (default on); a bad value names the variable", () => {
    expect(loadEnv({ CONSOLE_DIRECT_READS: " off " }).directReads).toBe(false);
    expect(loadEnv({ CONSOLE_DIRECT_READS: "" }).directReads).toBe(true);
    expect(fails({ CONSOLE_DIRECT_READS: "yes" })).toBe(
      'invalid configuration: CONSOLE_DIRECT_READS must be on or off (got "yes")',
    );
  });

  it("CONSOLE_OFFLOAD: where other moments are answered (default worker); a bad value names the variable", () => {
    expect(loadEnv({ CONSOLE_OFFLOAD: " thread " }).offload).toBe("thread");
    expect(loadEnv({ CONSOLE_OFFLOAD: "" }).offload).toBe("worker");
    expect(fails({ CONSOLE_OFFLOAD: "threads" })).toBe(
      'invalid configuration: CONSOLE_OFFLOAD must be worker or thread (got "threads")',
    );
  });

  it("CONSOLE_MEMORY_MIB: the memory budget in MiB (default 1024); a bad value names the variable", () => {
    expect(loadEnv({ CONSOLE_MEMORY_MIB: " 512 " }).memoryBudgetBytes).toBe(512 * 1_048_576);
    expect(loadEnv({ CONSOLE_MEMORY_MIB: "" }).memoryBudgetBytes).toBe(1024 * 1_048_576);
    expect(fails({ CONSOLE_MEMORY_MIB: "1g" })).toBe(
      'invalid configuration: CONSOLE_MEMORY_MIB must be a positive integer (MiB) (got "1g")',
    );
    expect(fails({ CONSOLE_MEMORY_MIB: "16" })).toBe(
      'invalid configuration: CONSOLE_MEMORY_MIB must be 64..1048576 (MiB) (got "16")',
    );
  });

  it("memoryBudgetMib: CONSOLE_MEMORY_MIB as loadEnv reads it, the default for a value it refuses", () => {
    expect(memoryBudgetMib({ CONSOLE_MEMORY_MIB: " 512 " })).toBe(512);
    expect(memoryBudgetMib({})).toBe(1024);
    expect(memoryBudgetMib({ CONSOLE_MEMORY_MIB: "1g" })).toBe(1024);
    expect(memoryBudgetMib({ CONSOLE_MEMORY_MIB: "16" })).toBe(1024);
  });

  it("CONSOLE_SESSION_SECRET: unset or empty means per-process; short or blank fails, without echoing it", () => {
    expect(loadEnv({ CONSOLE_SESSION_SECRET: "" }).sessionSecret).toBeNull();
    expect(loadEnv({ CONSOLE_SESSION_SECRET: ` ${"k".repeat(32)} ` }).sessionSecret).toBe("k".repeat(32));
    expect(fails({ CONSOLE_SESSION_SECRET: "s3cret" })).toBe(
      "invalid configuration: CONSOLE_SESSION_SECRET must be at least 32 characters",
    );
    expect(fails({ CONSOLE_SESSION_SECRET: "   " })).toBe(
      "invalid configuration: CONSOLE_SESSION_SECRET must not be blank (unset it for a per-process secret)",
    );
  });

  it("splits comma lists and trims the prefix's trailing slash", () => {
    const env = loadEnv({
      ETCD_ENDPOINTS: "http://10.0.0.1:2379, http://10.0.0.2:2379",
      ETCD_PREFIX: "/lc/master//",
      PORT: "8080",
      CONSOLE_ADMIN_TOKENS: "a, b,,",
      CONSOLE_VIEWER_TOKENS: "v",
      ETCD_USERNAME: "u",
      ETCD_PASSWORD: "p",
    });
    expect(env.etcd.endpoints).toEqual(["http://10.0.0.1:2379", "http://10.0.0.2:2379"]);
    expect(env.etcd.prefix).toBe("/lc/master");
    expect(env.etcd.auth).toEqual({ username: "u", password: "p" });
    expect(env.port).toBe(8080);
    expect(env.adminTokens).toEqual(["a", "b"]);
    expect(env.viewerTokens).toEqual(["v"]);
  });

  it.each([
    [
      { ETCD_ENDPOINTS: "127.0.0.1:2379" },
      'invalid configuration: ETCD_ENDPOINTS must be an http(s)://host:port URL (got "127.0.0.1:2379")',
    ],
    [
      { ETCD_ENDPOINTS: "http://a:1,https://b:2" },
      'invalid configuration: ETCD_ENDPOINTS cannot mix http and https URLs (got "http://a:1,https://b:2")',
    ],
    [{ ETCD_ENDPOINTS: "" }, 'invalid configuration: ETCD_ENDPOINTS needs at least one URL (got "")'],
    [{ PORT: "0" }, 'invalid configuration: PORT must be 1..65535 (got "0")'],
    [{ PORT: "65536" }, 'invalid configuration: PORT must be 1..65535 (got "65536")'],
    [{ PORT: "3000x" }, 'invalid configuration: PORT must be an integer (got "3000x")'],
    [{ ETCD_PREFIX: "/" }, "invalid configuration: ETCD_PREFIX must not be empty (or only '/') (got \"/\")"],
    [{ ETCD_USERNAME: "u" }, "invalid configuration: ETCD_PASSWORD must be set together with its pair"],
    [
      { ETCD_CERT_FILE: "c", ETCD_KEY_FILE: "k" },
      "invalid configuration: ETCD_CA_FILE is required when ETCD_CERT_FILE is set",
    ],
  ])("rejects %j with one line naming the variable", (env, message) => {
    const text = fails(env);
    expect(text).toBe(message);
    expect(text).not.toContain("\n");
  });
});

describe("loadSamplerEnv (the elected sampler)", () => {
  const samplerFails = (env: Record<string, string>) => fails(env, loadSamplerEnv);

  it("applies the defaults: on, one minute of shadow history, a 10 s election lease", () => {
    expect(loadSamplerEnv({})).toEqual({ enabled: true, shadowSampleMs: 60_000, electionTtlSecs: 10 });
    expect(
      loadSamplerEnv({
        CONSOLE_SHADOW_SAMPLER: "off",
        CONSOLE_SHADOW_SAMPLE_MS: "500",
        CONSOLE_SAMPLER_TTL_SECS: " 5 ",
      }),
    ).toEqual({ enabled: false, shadowSampleMs: 500, electionTtlSecs: 5 });
  });

  it("refuses a bad value instead of falling back to the default, naming the variable", () => {
    expect(samplerFails({ CONSOLE_SHADOW_SAMPLE_MS: "abc" })).toBe(
      'invalid configuration: CONSOLE_SHADOW_SAMPLE_MS must be a positive integer (got "abc")',
    );
    expect(samplerFails({ CONSOLE_SHADOW_SAMPLE_MS: "0" })).toBe(
      'invalid configuration: CONSOLE_SHADOW_SAMPLE_MS must be 1..86400000 (got "0")',
    );
    expect(samplerFails({ CONSOLE_SAMPLER_TTL_SECS: "-3" })).toBe(
      'invalid configuration: CONSOLE_SAMPLER_TTL_SECS must be a positive integer (got "-3")',
    );
    expect(samplerFails({ CONSOLE_SHADOW_SAMPLER: "disabled" })).toBe(
      'invalid configuration: CONSOLE_SHADOW_SAMPLER must be on or off (got "disabled")',
    );
    // loadEnv checks the sampler block at start-up too
    expect(fails({ CONSOLE_SAMPLER_TTL_SECS: "1.5" })).toBe(
      'invalid configuration: CONSOLE_SAMPLER_TTL_SECS must be a positive integer (got "1.5")',
    );
  });
});

describe("loadTakeoverEnv (the takeover gate)", () => {
  it("applies the defaults: no master is policy-aware, 7 days of observations", () => {
    expect(loadTakeoverEnv({})).toEqual({ policyAwareVersion: null, minDays: 7 });
    expect(loadTakeoverEnv({ CONSOLE_POLICY_AWARE_VERSION: " 0.43.0 ", CONSOLE_TAKEOVER_MIN_DAYS: "3" })).toEqual({
      policyAwareVersion: "0.43.0",
      minDays: 3,
    });
  });

  it("refuses a version that is not semver and a bad day count, naming the variable", () => {
    expect(fails({ CONSOLE_POLICY_AWARE_VERSION: "latest" }, loadTakeoverEnv)).toBe(
      'invalid configuration: CONSOLE_POLICY_AWARE_VERSION must be a semantic version such as 0.43.0 (got "latest")',
    );
    expect(fails({ CONSOLE_TAKEOVER_MIN_DAYS: "0" }, loadTakeoverEnv)).toBe(
      'invalid configuration: CONSOLE_TAKEOVER_MIN_DAYS must be 1..365 (got "0")',
    );
    expect(fails({ CONSOLE_TAKEOVER_MIN_DAYS: "seven" })).toBe(
      'invalid configuration: CONSOLE_TAKEOVER_MIN_DAYS must be a positive integer (got "seven")',
    );
  });
});

describe("loadJournalEnv (the decision journal)", () => {
  const journalFails = (env: Record<string, string>) => fails(env, loadJournalEnv);

  it("applies the defaults: on, 7 days, 256 MiB, a write at most every 5 s, an evaluation every second, a checkpoint every 30 min, 64 MiB of forecasts", () => {
    expect(loadJournalEnv({})).toEqual({
      enabled: true,
      retentionMs: 604_800_000,
      maxBytes: 268_435_456,
      flushMs: 5000,
      evalMs: 1000,
      checkpointMs: 1_800_000,
      forecastMaxBytes: 67_108_864,
    });
    expect(loadJournalEnv({ CONSOLE_FORECAST_MAX_MIB: "8" })).toMatchObject({ forecastMaxBytes: 8_388_608 });
    expect(
      loadJournalEnv({ CONSOLE_JOURNAL: "off", CONSOLE_JOURNAL_RETENTION_HOURS: "24", CONSOLE_JOURNAL_MAX_MIB: "64" }),
    ).toMatchObject({ enabled: false, retentionMs: 86_400_000, maxBytes: 67_108_864 });
  });

  it("refuses a bad value, naming the variable, also at start-up", () => {
    expect(journalFails({ CONSOLE_JOURNAL_RETENTION_HOURS: "0" })).toBe(
      'invalid configuration: CONSOLE_JOURNAL_RETENTION_HOURS must be 1..8784 (got "0")',
    );
    expect(journalFails({ CONSOLE_JOURNAL: "yes" })).toBe(
      'invalid configuration: CONSOLE_JOURNAL must be on or off (got "yes")',
    );
    expect(fails({ CONSOLE_JOURNAL_MAX_MIB: "lots" })).toBe(
      'invalid configuration: CONSOLE_JOURNAL_MAX_MIB must be a positive integer (got "lots")',
    );
  });
});
