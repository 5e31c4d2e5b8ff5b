import "server-only";
// lib/etcd: the only code that imports etcd3 (see README at the repo root for the layout).
export { createEtcdClient, closeEtcdClient, etcdClient, etcdPrefix, MAX_REQUEST_BYTES, MAX_RESPONSE_BYTES, type EtcdConnection, type EtcdClient } from "./client";
export { casPut, getStored, type CasResult, type StoredValue } from "./cas";
export {
  EtcdMessageTooLarge,
  EtcdTimeout,
  EtcdUnavailable,
  FutureRevision,
  RevisionCompacted,
  isCompactedError,
  isMessageSizeError,
  toEtcdError,
} from "./errors";
export { readCounters, snapshotCounters, type ReadCounters } from "./metrics-counters";
export {
  PAGE_BUDGET_BYTES,
  PAGE_MAX_KEYS,
  PAGE_MIN_KEYS,
  PAGE_START_KEYS,
  currentRevision,
  readPrefixPaged,
  readPrefixesAtRevision,
  type PagedReadOptions,
  type PagedReadResult,
  type RawKv,
  type ReadStats,
} from "./paged-read";
export { GuardFailed, writeChunked, type ChunkedWriteOptions, type ChunkedWriteResult, type LeasedWriteOp, type WriteOp } from "./writes";
