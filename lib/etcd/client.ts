import "server-only";
// The etcd client built from the validated configuration: a cluster of hosts, optional
// auth and TLS (files read at start-up), short per-call deadlines so a stopped etcd
// fails fast, and the fault policy of ./fault-policy.ts.
import fs from "node:fs";
import { Etcd3, type IOptions } from "etcd3";
import { consoleEnv } from "@/lib/config/env";
import { faultHandling, type FaultOptions } from "./fault-policy";

/** The master's client caps (scheduler-model.md §8.3): 4 MiB responses, 1.5 MiB requests. */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
const MAX_REQUEST_BYTES = 1.5 * 1024 * 1024;
/** HTTP/2 connection and stream receive window: two full-size responses in flight. */
const FLOW_CONTROL_WINDOW_BYTES = 2 * MAX_RESPONSE_BYTES;

export interface EtcdConnection {
  endpoints: string[];
  auth?: { username: string; password: string };
  tls?: { caFile: string; certFile?: string; keyFile?: string };
  /** deadline of each unary call in event-loop time (./fault-policy.ts; streams have none); default 3,000 ms */
  callTimeoutMs?: number;
  /** deadline of the first connection attempt of a call; default 2,000 ms */
  dialTimeoutMs?: number;
  fault?: FaultOptions;
}

/** the per-call deadline each client was created with (ms) */
const CALL_TIMEOUTS = new WeakMap<object, number>();
const callTimeoutOf = (client: EtcdClient) => CALL_TIMEOUTS.get(client) ?? 3000;

/** gRPC's own (wall-clock) deadline of a unary call: ten times the call's, and at least 30 s. */
const backstopMs = (callTimeoutMs: number) => Math.max(10 * callTimeoutMs, 30_000);

/** The wall-clock gRPC deadline a call made outside etcd3's own methods sets (./fast-range.ts): the backstop only. */
export function grpcDeadlineOf(client: EtcdClient): number {
  return Date.now() + backstopMs(callTimeoutOf(client));
}

export function createEtcdClient(conn: EtcdConnection): EtcdClient {
  const callTimeoutMs = conn.callTimeoutMs ?? 3000;
  const options: IOptions = {
    hosts: conn.endpoints,
    dialTimeout: conn.dialTimeoutMs ?? 2000,
    auth: conn.auth,
    credentials: conn.tls
      ? {
          rootCertificate: fs.readFileSync(conn.tls.caFile),
          privateKey: conn.tls.keyFile ? fs.readFileSync(conn.tls.keyFile) : undefined,
          certChain: conn.tls.certFile ? fs.readFileSync(conn.tls.certFile) : undefined,
        }
      : undefined,
    grpcOptions: {
      "grpc.max_receive_message_length": MAX_RESPONSE_BYTES,
      "grpc.max_send_message_length": MAX_REQUEST_BYTES + 64 * 1024,
      // etcd3 ignores `dialTimeout`; bound reconnect back-off so a restarted member is found quickly
      "grpc.initial_reconnect_backoff_ms": 200,
      "grpc.max_reconnect_backoff_ms": conn.dialTimeoutMs ?? 2000,
      // HTTP/2 receive window (default 64 KiB): a 1 MiB page otherwise arrives in ~16
      // window-update round trips, which costs etcd and this process CPU on every read
      "grpc-node.flow_control_window": FLOW_CONTROL_WINDOW_BYTES,
    },
    // gRPC's deadline is wall-clock time: only the backstop of the call deadline the fault
    // policy keeps in event-loop time, so an answer waiting behind a held thread is not lost
    defaultCallOptions: (ctx) => (ctx.isStream ? {} : { deadline: Date.now() + backstopMs(callTimeoutMs) }),
    faultHandling: faultHandling({ ...conn.fault, callTimeoutMs }),
  };
  const client = new Etcd3(options);
  CALL_TIMEOUTS.set(client, callTimeoutMs);
  return client;
}

let configured: EtcdClient | undefined;

/**
 * The process-wide client for the configured ETCD_ENDPOINTS (created on first use): one
 * connection per process.
 */
export function etcdClient(): EtcdClient {
  if (!configured) {
    const { etcd } = consoleEnv();
    configured = createEtcdClient({ endpoints: etcd.endpoints, auth: etcd.auth, tls: etcd.tls });
  }
  return configured;
}

/** The configured prefix `P` (trailing `/` trimmed). */
export function etcdPrefix(): string {
  return consoleEnv().etcd.prefix;
}

/**
 * A connection to etcd as modules outside lib/etcd see it: a handle they hold, pass to
 * lib/etcd's functions and close, never call (the etcd3 client behind it is lib/etcd/raw.ts's).
 */
export type EtcdClient = Pick<Etcd3, "close">;
