import "server-only";
// The live cache's ping (lib/live/cache.ts): is etcd there? Fast to fail, so a request never
// hangs on an etcd that is away (typed 503 `etcd_unavailable` within PING_TIMEOUT_MS).
import type { EtcdClient } from "@/lib/etcd/client";
import { EtcdUnavailable, toEtcdError } from "@/lib/etcd/errors";
import { currentRevision } from "@/lib/etcd/paged-read";
import { DeadlineExceeded, LOOP_STEP_MS, withDeadline } from "@/lib/util/deadline";

const PING_TIMEOUT_MS = 1500;

/**
 * `p`, or EtcdUnavailable after `ms` of event-loop time (a ping whose answer waits behind a
 * held thread is not etcd away); its failures as lib/etcd's typed errors.
 */
const etcdWithin = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  withDeadline(p, ms, what, { loopStepMs: LOOP_STEP_MS }).catch((e: unknown) => {
    throw e instanceof DeadlineExceeded ? new EtcdUnavailable(e.message) : toEtcdError(e, what);
  });

/**
 * Up to `tries` attempts of `attempt`, a new one every `everyMs` or as soon as the previous
 * one failed; the first answer wins. Each attempt goes to a randomly chosen member, so a
 * call stuck on a member that just died does not sink a ping that another member answers.
 */
function hedged<T>(attempt: () => Promise<T>, everyMs: number, tries: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let started = 0;
    let failed = 0;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const launch = () => {
      if (settled || started >= tries) return;
      started += 1;
      clearTimeout(timer);
      if (started < tries) (timer = setTimeout(launch, everyMs)).unref();
      attempt().then(
        (v) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(v);
        },
        (e) => {
          failed += 1;
          if (settled) return;
          if (failed >= tries) {
            settled = true;
            reject(e);
          } else launch();
        },
      );
    };
    launch();
  });
}

/** etcd's current revision under `prefix`, hedged over three attempts, or EtcdUnavailable after PING_TIMEOUT_MS. */
export function pingEtcd(client: EtcdClient, prefix: string): Promise<number> {
  const probe = () => currentRevision(client, prefix);
  return etcdWithin(hedged(probe, PING_TIMEOUT_MS / 3, 3), PING_TIMEOUT_MS, "etcd ping");
}
