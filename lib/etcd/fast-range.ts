import "server-only";
// KV.Range through etcd3's connection pool (same hosts, auth metadata and host guard),
// but with ./range-codec.ts instead of protobufjs objects. Errors are cast exactly as
// etcd3 casts them, so the fault policy and error mapping see the usual classes. Like
// etcd3's own calls (ConnectionPool.exec), each call runs under the client's global
// policy (./fault-policy.ts: UNAVAILABLE is retried on the next member of one shuffled
// host sequence; message-size errors are never retried and never trip a breaker).
import type { Metadata, ServiceError } from "@grpc/grpc-js";
import { castGrpcError, EtcdInvalidAuthTokenError, type Etcd3 } from "etcd3";
import { callTimeoutOf } from "./client";
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
  withConnection<T>(service: string, fn: (conn: { client: GrpcUnaryClient; metadata: Metadata }) => Promise<T>, hosts?: Iterator<unknown>): Promise<T>;
  /** endless generator of the hosts, reshuffled each round (etcd3 ConnectionPool) */
  shuffledHosts(): Iterator<unknown>;
  /** the client's `faultHandling.global` policy */
  globalPolicy: { execute<T>(fn: () => Promise<T>): Promise<T> };
  authenticator?: { invalidateMetadata(): void };
}

/** A too-large response is never "recoverable", whatever policy the client was given. */
const notRetriedIfTooLarge = (e: Error) => (isMessageSizeError(e) && !(e instanceof EtcdMessageTooLarge) ? new EtcdMessageTooLarge(e.message) : e);

const poolOf = (client: Etcd3) => (client as unknown as { pool: PoolLike }).pool;

export async function fastRange(client: Etcd3, req: RangeRequestFields): Promise<DecodedRange> {
  const pool = poolOf(client);
  const request = (hosts: Iterator<unknown>) =>
    pool.withConnection("KV", ({ client: grpc, metadata }) => {
      return new Promise<DecodedRange>((resolve, reject) => {
        grpc.makeUnaryRequest(
          "/etcdserverpb.KV/Range",
          encodeRangeRequest,
          decodeRangeResponse,
          req,
          metadata,
          { deadline: Date.now() + callTimeoutOf(client) },
          (error, value) => (error ? reject(notRetriedIfTooLarge(castGrpcError(error))) : resolve(value!)),
        );
      });
    }, hosts);
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
