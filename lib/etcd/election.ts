import "server-only";
// One elected replica among several consoles (the samplers): the holder of `key` is the
// replica that created it in a txn while it was absent, bound to its own lease. A replica
// that dies stops renewing, the key vanishes with its lease, and a follower's next
// campaign takes over within one TTL. Writes on the holder's behalf compare the key's
// value in the same txn, so a deposed holder writes nothing.
import type { Etcd3, Lease } from "etcd3";
import type { EtcdClient } from "./client";
import { raw } from "./raw";
import { toEtcdError } from "./errors";

export interface LeasedPut {
  key: string;
  value: string;
}

export class Election {
  private lease: Lease | null = null;
  private leaseId: string | null = null;
  private holding = false;
  /** when etcd last failed this replica (a campaign that could not reach it, a lease lost); 0: never */
  lastFailureMs = 0;

  private readonly client: Etcd3;

  constructor(
    etcd: EtcdClient,
    readonly key: string,
    readonly replica: string,
    private readonly ttlSecs: number,
    /** called when this replica stops holding the key (lease lost, or a guarded write failed) */
    private readonly onLost: () => void,
  ) {
    this.client = raw(etcd);
  }

  get isHolder(): boolean {
    return this.holding;
  }

  /** One attempt: true when this replica holds the key afterwards. Never throws. */
  async campaign(): Promise<boolean> {
    try {
      if (!this.lease || this.lease.revoked()) {
        const lease = this.client.lease(this.ttlSecs);
        lease.on("lost", () => {
          if (this.lease !== lease) return;
          this.lastFailureMs = Date.now();
          this.drop();
        });
        this.leaseId = await lease.grant();
        this.lease = lease;
      }
      if (!this.holding) {
        const res = await this.client
          .if(this.key, "Create", "==", 0)
          .then(this.client.put(this.key).value(this.replica).lease(this.leaseId!))
          .commit();
        this.holding = res.succeeded;
      }
    } catch {
      this.lastFailureMs = Date.now();
      this.drop();
    }
    return this.holding;
  }

  /**
   * Puts `puts` (no lease: the journal trims itself) and deletes the key spans
   * [from, to) only while this replica still holds the key (one txn).
   */
  async writeIfHolder(
    puts: { key: string; value: string | Buffer }[],
    deletes: { from: string; to: string }[] = [],
  ): Promise<boolean> {
    try {
      const res = await this.client
        .if(this.key, "Value", "==", this.replica)
        .then(
          ...puts.map((p) => this.client.put(p.key).value(p.value)),
          ...deletes.map((d) => this.client.delete().inRange({ start: d.from, end: d.to })),
        )
        .commit();
      if (!res.succeeded) this.drop();
      return res.succeeded;
    } catch (e) {
      throw toEtcdError(e, `write ${puts.map((p) => p.key).join(", ")}`);
    }
  }

  /** Puts `puts` on `leaseId` only while this replica still holds the key (one txn). */
  async putIfHolder(puts: LeasedPut[], leaseId: string): Promise<boolean> {
    try {
      const res = await this.client
        .if(this.key, "Value", "==", this.replica)
        .then(...puts.map((p) => this.client.put(p.key).value(p.value).lease(leaseId)))
        .commit();
      if (!res.succeeded) this.drop();
      return res.succeeded;
    } catch (e) {
      throw toEtcdError(e, `write ${puts.map((p) => p.key).join(", ")}`);
    }
  }

  async resign(): Promise<void> {
    const lease = this.lease;
    this.lease = null;
    this.leaseId = null;
    this.holding = false;
    await lease?.revoke().catch(() => undefined);
  }

  private drop(): void {
    this.lease?.release();
    this.lease = null;
    this.leaseId = null;
    const was = this.holding;
    this.holding = false;
    if (was) this.onLost();
  }
}

/**
 * A long lease for durable samples, renewed by replacement: one lease is reused for
 * `reuseMs`, so a sample lives between `ttlSecs` and `ttlSecs + reuseMs`.
 */
export class RollingLease {
  private current: { lease: Lease; id: string; sinceMs: number } | null = null;

  private readonly client: Etcd3;

  constructor(
    etcd: EtcdClient,
    private readonly ttlSecs: number,
    private readonly reuseMs: number,
  ) {
    this.client = raw(etcd);
  }

  async id(): Promise<string> {
    if (!this.current || Date.now() - this.current.sinceMs > this.reuseMs) {
      this.current?.lease.release();
      const lease = this.client.lease(this.ttlSecs + Math.ceil(this.reuseMs / 1000), { autoKeepAlive: false });
      try {
        this.current = { lease, id: await lease.grant(), sinceMs: Date.now() };
      } catch (e) {
        this.current = null;
        throw toEtcdError(e, "grant a sample lease");
      }
    }
    return this.current.id;
  }

  release(): void {
    this.current?.lease.release();
    this.current = null;
  }
}
