import "server-only";
// The client's fault handling (etcd3 `faultHandling`), written out instead of etcd3's
// defaults because those treat RESOURCE_EXHAUSTED as recoverable: a too-large range
// response would be retried three times, reset the channel and open the host breaker
// for 5 s, blocking every following read. Here:
// * host guard (one per member): every call's deadline (`callTimeoutMs`) counts the event
//   loop's time, not the wall clock's (lib/util/deadline.ts LOOP_STEP_MS): an answer that
//   came while the thread was held by other work is taken once it is free, not declared
//   lost (gRPC's own wall-clock deadline is only a backstop, ./client.ts). A message-size
//   error becomes EtcdMessageTooLarge (not recoverable: no retry, no channel reset, breaker
//   untouched); only "member did not answer" errors count, and 3 in a row block that member
//   for `openMs`;
// * global: retries only UNAVAILABLE, on another member, at most `attempts` times.
import { GRPCUnavailableError, type IOptions } from "etcd3";
import { DeadlineExceeded, LOOP_STEP_MS, withDeadline } from "@/lib/util/deadline";
import { EtcdHostBlocked, EtcdMessageTooLarge, EtcdTimeout, isHostDownError, isMessageSizeError } from "./errors";

type FaultHandling = NonNullable<IOptions["faultHandling"]>;
type Policy = NonNullable<FaultHandling["global"]>;
type Context = Parameters<Parameters<Policy["execute"]>[0]>[0];

const silentEvent = (() => ({ dispose() {} })) as unknown as Policy["onSuccess"];

function policy(execute: <T>(fn: (ctx: Context) => PromiseLike<T> | T, signal?: AbortSignal) => Promise<T>): Policy {
  return { onSuccess: silentEvent, onFailure: silentEvent, execute } as unknown as Policy;
}

export interface FaultOptions {
  /** consecutive "did not answer" failures that block a member */
  breakAfter?: number;
  /** how long a blocked member is skipped */
  openMs?: number;
  /** total attempts of one call across members (UNAVAILABLE only) */
  attempts?: number;
  /** one call's deadline, in event-loop time (default 3,000 ms) */
  callTimeoutMs?: number;
}

function hostGuard(host: string, opts: FaultOptions = {}): Policy {
  const breakAfter = opts.breakAfter ?? 3;
  const openMs = opts.openMs ?? 1000;
  const callTimeoutMs = opts.callTimeoutMs ?? 3000;
  let downInARow = 0;
  let blockedUntil = 0;
  return policy(async (fn, signal) => {
    if (Date.now() < blockedUntil) throw new EtcdHostBlocked(host);
    try {
      const call = Promise.resolve(fn({ signal: signal ?? new AbortController().signal }));
      const result = await withDeadline(call, callTimeoutMs, `etcd ${host}`, { loopStepMs: LOOP_STEP_MS }).catch(
        (e: unknown) => {
          if (!(e instanceof DeadlineExceeded)) throw e;
          call.catch(() => undefined); // its end (gRPC's backstop deadline) is no one's concern now
          throw new EtcdTimeout(`${host}: no answer within ${callTimeoutMs} ms`);
        },
      );
      downInARow = 0;
      return result;
    } catch (e) {
      if (isMessageSizeError(e)) throw new EtcdMessageTooLarge(e instanceof Error ? e.message : String(e));
      if (isHostDownError(e)) {
        downInARow += 1;
        if (downInARow >= breakAfter) {
          blockedUntil = Date.now() + openMs;
          downInARow = 0;
        }
      } else {
        downInARow = 0; // the member answered (with an application error)
      }
      throw e;
    }
  });
}

function retryUnavailable(opts: FaultOptions = {}): Policy {
  const attempts = Math.max(1, opts.attempts ?? 3);
  return policy(async (fn, signal) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn({ signal: signal ?? new AbortController().signal });
      } catch (e) {
        const retryable = e instanceof GRPCUnavailableError;
        if (!retryable || attempt >= attempts) throw e;
      }
    }
  });
}

export function faultHandling(opts: FaultOptions = {}): FaultHandling {
  return { host: (host: string) => hostGuard(host, opts), global: retryUnavailable(opts) };
}
