// A tiny etcd v3 client over etcd's own JSON gateway (`/v3/kv/*`), for tests and
// benchmarks that must write arbitrary bytes, compact, or read at a pinned revision
// without going through the console's code under test (and without importing etcd3,
// which only lib/etcd may). Keys and values travel base64-encoded.
const b64 = (v: string | Buffer) => (typeof v === "string" ? Buffer.from(v, "utf8") : v).toString("base64");
const unb64 = (s: string | undefined) => Buffer.from(s ?? "", "base64");

/** Exclusive end of a prefix range (last non-0xFF byte incremented), as etcd's `--prefix`. */
function prefixEnd(prefix: string | Buffer): Buffer {
  const end = Buffer.from(typeof prefix === "string" ? Buffer.from(prefix, "utf8") : prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i] < 0xff) {
      end[i] += 1;
      return end.subarray(0, i + 1);
    }
  }
  return Buffer.from([0]);
}

export interface GatewayKv {
  key: Buffer;
  value: Buffer;
  modRevision: number;
}

export interface Put {
  key: string | Buffer;
  value: string | Buffer;
}

export class EtcdHttp {
  private token: string | undefined;

  /** `endpoint` is one client URL (http://127.0.0.1:2379); `auth` for an auth-enabled etcd. */
  constructor(
    readonly endpoint: string,
    private readonly auth?: { username: string; password: string },
  ) {}

  /**
   * One gateway call, retried for up to `retryMs` while the cluster is electing a leader
   * or a member is down (every call here is idempotent: puts of fixed values, ranges).
   */
  private async call<T>(path: string, body: unknown, timeoutMs = 30_000, retryMs = 15_000): Promise<T> {
    const deadline = Date.now() + retryMs;
    for (;;) {
      try {
        return await this.callOnce<T>(path, body, timeoutMs);
      } catch (e) {
        const transient =
          /answered 5\d\d|fetch failed|ECONNREFUSED|ECONNRESET|aborted|timeout/i.test((e as Error).message) &&
          !/compacted/.test((e as Error).message);
        if (!transient || Date.now() > deadline) throw e;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  private async callOnce<T>(path: string, body: unknown, timeoutMs: number): Promise<T> {
    if (this.auth && !this.token) {
      const res = await fetch(`${this.endpoint}/v3/auth/authenticate`, {
        method: "POST",
        body: JSON.stringify({ name: this.auth.username, password: this.auth.password }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      this.token = ((await res.json()) as { token: string }).token;
    }
    const res = await fetch(`${this.endpoint}${path}`, {
      method: "POST",
      headers: this.token ? { Authorization: this.token } : {},
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`etcd ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  }

  async put(key: string | Buffer, value: string | Buffer): Promise<number> {
    const r = await this.call<{ header: { revision: string } }>("/v3/kv/put", { key: b64(key), value: b64(value) });
    return Number(r.header.revision);
  }

  /** Puts in txns of at most `opsPerTxn` ops and ~`bytesPerTxn` bytes (an oversize op goes alone). */
  async putMany(puts: Put[], opsPerTxn = 100, bytesPerTxn = 768 * 1024): Promise<number> {
    let revision = 0;
    let chunk: Put[] = [];
    let bytes = 0;
    const flush = async () => {
      if (chunk.length === 0) return;
      const r = await this.call<{ header: { revision: string } }>("/v3/kv/txn", {
        success: chunk.map((p) => ({ request_put: { key: b64(p.key), value: b64(p.value) } })),
      });
      revision = Number(r.header.revision);
      chunk = [];
      bytes = 0;
    };
    for (const p of puts) {
      const cost = Buffer.byteLength(p.key) + Buffer.byteLength(p.value) + 32;
      if (chunk.length > 0 && (chunk.length >= opsPerTxn || bytes + cost > bytesPerTxn)) await flush();
      chunk.push(p);
      bytes += cost;
    }
    await flush();
    return revision;
  }

  async deletePrefix(prefix: string): Promise<number> {
    const r = await this.call<{ header: { revision: string } }>("/v3/kv/deleterange", {
      key: b64(prefix),
      range_end: b64(prefixEnd(prefix)),
    });
    return Number(r.header.revision);
  }

  /** One range request (no paging): keys only when `keysOnly`. */
  async range(
    prefix: string,
    opts: { revision?: number; limit?: number; keysOnly?: boolean; countOnly?: boolean } = {},
  ): Promise<{ revision: number; kvs: GatewayKv[]; more: boolean; count: number }> {
    const r = await this.call<{
      header: { revision: string };
      kvs?: { key: string; value?: string; mod_revision: string }[];
      more?: boolean;
      count?: string;
    }>("/v3/kv/range", {
      key: b64(prefix),
      range_end: b64(prefixEnd(prefix)),
      revision: opts.revision ?? 0,
      limit: opts.limit ?? 0,
      keys_only: opts.keysOnly ?? false,
      count_only: opts.countOnly ?? false,
    });
    return {
      revision: Number(r.header.revision),
      kvs: (r.kvs ?? []).map((kv) => ({
        key: unb64(kv.key),
        value: unb64(kv.value),
        modRevision: Number(kv.mod_revision),
      })),
      more: r.more ?? false,
      count: Number(r.count ?? 0),
    };
  }

  async count(prefix: string): Promise<number> {
    return (await this.range(prefix, { countOnly: true })).count;
  }

  async revision(): Promise<number> {
    const r = await this.call<{ header: { revision: string } }>("/v3/kv/range", { key: b64("\0"), count_only: true });
    return Number(r.header.revision);
  }

  /** Compacts history up to `revision` (physical: waits until applied). */
  async compact(revision: number): Promise<void> {
    await this.call("/v3/kv/compaction", { revision, physical: true });
  }
}
