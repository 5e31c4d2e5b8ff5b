import "server-only";
// KV.Range through etcd3's connection pool (same hosts, auth metadata and host guard),
// but with ./range-codec.ts instead of protobufjs objects. Errors are cast exactly as
// etcd3 casts them, so the fault policy and error mapping see the usual classes.
import type { Metadata, ServiceError } from "@grpc/grpc-js";
import { castGrpcError, EtcdInvalidAuthTokenError, type Etcd3 } from "etcd3";
import { callTimeoutOf } from "./client";
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
  withConnection<T>(service: string, fn: (conn: { client: GrpcUnaryClient; metadata: Metadata }) => Promise<T>): Promise<T>;
  authenticator?: { invalidateMetadata(): void };
}

const poolOf = (client: Etcd3) => (client as unknown as { pool: PoolLike }).pool;

export async function fastRange(client: Etcd3, req: RangeRequestFields): Promise<DecodedRange> {
  const pool = poolOf(client);
  const call = () =>
    pool.withConnection("KV", ({ client: grpc, metadata }) => {
      return new Promise<DecodedRange>((resolve, reject) => {
        grpc.makeUnaryRequest(
          "/etcdserverpb.KV/Range",
          encodeRangeRequest,
          decodeRangeResponse,
          req,
          metadata,
          { deadline: Date.now() + callTimeoutOf(client) },
          (error, value) => (error ? reject(castGrpcError(error)) : resolve(value!)),
        );
      });
    });
  try {
    return await call();
  } catch (e) {
    if (!(e instanceof EtcdInvalidAuthTokenError)) throw e;
    pool.authenticator?.invalidateMetadata();
    return call();
  }
}
