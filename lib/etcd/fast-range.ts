import "server-only";
import type { EtcdClient } from "./client";
import { raw } from "./raw";
// KV.Range through etcd3's connection pool (same hosts, auth metadata and host guard),
// but with ./range-codec.ts instead of protobufjs objects. Errors are cast exactly as
// etcd3 casts them, so the fault policy and error mapping see the usual classes. Like
// etcd3's own calls (ConnectionPool.exec), each call runs under the client's global
// policy (./fault-policy.ts: UNAVAILABLE is retried on the next member of one shuffled
// host sequence; message-size errors are never retried and never trip a breaker).
import type { Metadata, ServiceError } from "@grpc/grpc-js";
import { castGrpcError, EtcdInvalidAuthTokenError } from "etcd3";
import { grpcDeadlineOf } from "./client";
import { EtcdMessageTooLarge, isMessageSizeError } from "./errors";
import { decodeRangeResponse, encodeRangeRequest, type DecodedRange, type RangeRequestFields } from "./range-codec";

interface GrpcUnaryClient {
  makeUnaryRequest<Req, Res>(
    method: string,
    serialize: (value: Req) => Buffer,
    deserialize: (value: Buffer) => Res,
    argument: Req,
    metadata: Metadata,
    options: { deadline?: number },
    callback: (error: ServiceError | null, value?: Res) => void,
  ): unknown;
}

interface PoolLike {
  withConnection<T>(
    service: string,
    fn: (conn: { client: GrpcUnaryClient; metadata: Metadata }) => Promise<T>,
    hosts?: Iterator<unknown>,
  ): Promise<T>;
  /** endless generator of the hosts, reshuffled each round (etcd3 ConnectionPool) */
  shuffledHosts(): Iterator<unknown>;
  /** the client's `faultHandling.global` policy */
  globalPolicy: { execute<T>(fn: () => Promise<T>): Promise<T> };
  authenticator?: { invalidateMetadata(): void };
}

/** A too-large response is never "recoverable", whatever policy the client was given. */
const notRetriedIfTooLarge = (e: Error) =>
  isMessageSizeError(e) && !(e instanceof EtcdMessageTooLarge) ? new EtcdMessageTooLarge(e.message) : e;

/**
 * etcd3's private ConnectionPool, checked to have what this module uses (etcd3 1.1.2:
 * `pool.withConnection`, `pool.shuffledHosts`, `pool.globalPolicy.execute`, and
 * `pool.authenticator.invalidateMetadata` when auth is configured). A future etcd3 without
 * them fails here, naming the member, not deep inside a read (lib/etcd/fast-range.test.ts).
 */
export function poolOf(etcd: EtcdClient): PoolLike {
  const client = raw(etcd);
  const pool = (client as unknown as { pool?: Partial<PoolLike> }).pool;
  const missing = [
    typeof pool !== "object" || pool === null ? "pool" : null,
    typeof pool?.withConnection !== "function" ? "pool.withConnection" : null,
    typeof pool?.shuffledHosts !== "function" ? "pool.shuffledHosts" : null,
    typeof pool?.globalPolicy?.execute !== "function" ? "pool.globalPolicy.execute" : null,
    pool?.authenticator !== undefined && typeof pool.authenticator?.invalidateMetadata !== "function"
      ? "pool.authenticator.invalidateMetadata"
      : null,
  ].filter((m): m is string => m !== null);
  if (missing.length > 0)
    throw new Error(`etcd3 internals changed: Etcd3 lacks ${missing.join(", ")} (lib/etcd/fast-range.ts reads them)`);
  return pool as PoolLike;
}

export async function fastRange(etcd: EtcdClient, req: RangeRequestFields): Promise<DecodedRange> {
  const client = raw(etcd);
  const pool = poolOf(client);
  const request = (hosts: Iterator<unknown>) =>
    pool.withConnection(
      "KV",
      ({ client: grpc, metadata }) => {
        return new Promise<DecodedRange>((resolve, reject) => {
          grpc.makeUnaryRequest(
            "/etcdserverpb.KV/Range",
            encodeRangeRequest,
            decodeRangeResponse,
            req,
            metadata,
            // the call's deadline is the host guard's, in event-loop time (./fault-policy.ts); this is its backstop
            { deadline: grpcDeadlineOf(client) },
            (error, value) => (error ? reject(notRetriedIfTooLarge(castGrpcError(error))) : resolve(value!)),
          );
        });
      },
      hosts,
    );
  // one host sequence per call: each retry goes to the member after the one that failed
  const call = () => {
    const hosts = pool.shuffledHosts();
    return pool.globalPolicy.execute(() => request(hosts));
  };
  try {
    return await call();
  } catch (e) {
    if (!(e instanceof EtcdInvalidAuthTokenError)) throw e;
    pool.authenticator?.invalidateMetadata();
    return call();
  }
}
