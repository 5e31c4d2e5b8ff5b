import "server-only";
// Typed etcd failures with stable codes (console-api.md: 410 revision_compacted,
// 503 etcd_unavailable, 504 etcd_timeout). Only lib/etcd sees etcd3's own error classes.
import { GRPCDeadlineExceededError, GRPCResourceExhastedError, GRPCUnavailableError } from "etcd3";
/** A read pinned to a revision older than the store's compaction point. */
export class RevisionCompacted extends Error {
  readonly code = "revision_compacted";
  constructor(
    readonly revision: number,
    readonly compactRevision: number,
  ) {
    super(`revision ${revision} has been compacted (compact revision ${compactRevision})`);
    this.name = "RevisionCompacted";
  }
}
/** A read pinned to a revision the store has not reached yet. */
export class FutureRevision extends Error {
  readonly code = "future_revision";
  constructor(readonly revision: number) {
    super(`revision ${revision} is a future revision`);
    this.name = "FutureRevision";
  }
}
/** No etcd member answered (refused, unreachable, or every member's breaker is open). */
export class EtcdUnavailable extends Error {
  readonly code = "etcd_unavailable";
  readonly retryAfterMs = 1000;
  constructor(message: string, options?: { cause?: unknown }) {
    super(`etcd unavailable: ${message}`, options);
    this.name = "EtcdUnavailable";
  }
}
/** A call ran past its deadline. */
export class EtcdTimeout extends Error {
  readonly code = "etcd_timeout";
  constructor(message: string, options?: { cause?: unknown }) {
    super(`etcd timeout: ${message}`, options);
    this.name = "EtcdTimeout";
  }
}
/**
 * A response larger than the client's receive cap (gRPC RESOURCE_EXHAUSTED). Not a
 * "recoverable" etcd3 error on purpose: it is never retried as-is and never trips a
 * host breaker; the paged reader shrinks its page instead (§8.1).
 */
export class EtcdMessageTooLarge extends Error {
  readonly code = "message_too_large";
  constructor(message: string) {
    super(message);
    this.name = "EtcdMessageTooLarge";
  }
}
/** Raised by the host guard while a member's breaker is open (duck-typed like cockatiel's). */
export class EtcdHostBlocked extends Error {
  readonly isBrokenCircuitError = true;
  constructor(host: string) {
    super(`etcd member ${host} failed repeatedly; not calling it for a moment`);
    this.name = "EtcdHostBlocked";
  }
}
const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** §8.1: an error whose text says the message was too long (gRPC code 8 / "message length"). */
export function isMessageSizeError(e: unknown): boolean {
  if (e instanceof EtcdMessageTooLarge || e instanceof GRPCResourceExhastedError) return true;
  return /message length|larger than max|message larger/i.test(messageOf(e));
}

/** The member did not answer (refused, or no answer within the deadline): counts towards its breaker. */
export function isHostDownError(e: unknown): boolean {
  return e instanceof GRPCUnavailableError || e instanceof GRPCDeadlineExceededError || e instanceof EtcdTimeout;
}

export function isCompactedError(e: unknown): boolean {
  return /required revision has been compacted/.test(messageOf(e));
}

/**
 * Maps an etcd3/grpc error to a typed one. Compaction is mapped by the reader (it needs
 * the compact revision); anything unrecognised is returned unchanged.
 */
export function toEtcdError(e: unknown, what: string): unknown {
  if (
    e instanceof EtcdUnavailable ||
    e instanceof EtcdTimeout ||
    e instanceof RevisionCompacted ||
    e instanceof FutureRevision
  )
    return e;
  if (e instanceof GRPCDeadlineExceededError || /deadline exceeded/i.test(messageOf(e)))
    return new EtcdTimeout(`${what}: ${messageOf(e)}`, { cause: e });
  if (
    e instanceof GRPCUnavailableError ||
    e instanceof EtcdHostBlocked ||
    /no connection established|connect ECONNREFUSED|UNAVAILABLE/i.test(messageOf(e))
  ) {
    return new EtcdUnavailable(`${what}: ${messageOf(e)}`, { cause: e });
  }
  return e;
}
