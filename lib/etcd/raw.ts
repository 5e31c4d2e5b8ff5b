import "server-only";
// The etcd3 client behind an EtcdClient handle: lib/etcd's own (.dependency-cruiser.cjs
// "only-lib-etcd-unwraps-the-client"). Every other module holds the handle and passes it to
// lib/etcd's functions; only they call etcd.
import type { Etcd3 } from "etcd3";
import { createEtcdClient, type EtcdClient, type EtcdConnection } from "./client";

export const raw = (client: EtcdClient): Etcd3 => client as Etcd3;

/**
 * A client created as lib/etcd/client.ts creates the console's, unwrapped: for tests,
 * benchmarks and end-to-end setup, which seed and inspect etcd directly.
 */
export const createRawEtcdClient = (conn: EtcdConnection): Etcd3 => raw(createEtcdClient(conn));
