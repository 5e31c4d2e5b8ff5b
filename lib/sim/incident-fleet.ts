// The lives of the fleet's incidents:
// * the draining executor (`worker-draining`) drains for a spell (its merges finish, it takes
//   nothing new), comes back for a spell (its merge slots claim again), and drains again;
// * an orphan assignment now and then: the leader assigns `incident/orphan` to `worker-gone`,
//   whose heartbeat then stops, so the assignment points at an executor with no heartbeat. The
//   master's cycle releases an unbound assignment at its bind deadline (./bind-deadlines.ts),
//   the seeded one included.
import { INCIDENT } from "./scenarios/incidents";
import { heartbeatValue, type SimExecutor } from "./scenarios/fleet";
import { keys } from "@/lib/schema/keys";
import { del, put, type SimOp } from "./ops";
import type { Life, LifeStep } from "./incident-merges";

const MINUTE = 60_000;
export const DRAIN_SPELL_MS = 20 * MINUTE;
/** a new orphan assignment this often */
export const ORPHAN_EVERY_MS = 15 * MINUTE;
/** §5.5 bind_timeout_secs: an unbound assignment is released this long after it was made */
export const BIND_TIMEOUT_MS = 30_000;

export class DrainingExecutorLife implements Life {
  private since: number;

  constructor(
    private readonly executor: SimExecutor,
    startMs: number,
  ) {
    this.since = startMs;
  }

  step(_tick: number, now: number): LifeStep {
    if (now - this.since < DRAIN_SPELL_MS) return { ops: [], publishes: [] };
    this.since = now;
    this.executor.draining = !this.executor.draining;
    // the world's next heartbeat says so; one now, so the change is seen at once
    return { ops: [], publishes: [], heartbeat: true };
  }
}

export class OrphanLife implements Life {
  private next: number;
  private made = 0;
  /** the steps of one orphan in flight: heartbeat, assignment, heartbeat gone */
  private pending: { at: number; ops: () => SimOp[] }[] = [];

  constructor(
    private readonly prefix: string,
    private readonly leaderToken: string,
    startMs: number,
  ) {
    this.next = startMs + ORPHAN_EVERY_MS;
  }

  step(_tick: number, now: number): LifeStep {
    const ops: SimOp[] = [];
    if (now >= this.next) {
      this.next = now + ORPHAN_EVERY_MS;
      this.made += 1;
      const gone: SimExecutor = {
        id: INCIDENT.orphanExecutor,
        kind: "worker",
        kinds: ["merge_wal"],
        slots_total: { merge_wal: 1 },
        bytes_total: 4 * 1024 ** 3,
        draining: false,
      };
      const unitId = `orphan-${now.toString(36)}-${this.made}`;
      const p = this.prefix;
      const target = INCIDENT.orphanTarget;
      this.pending.push(
        { at: now, ops: () => [put(keys.executor(p, gone.id), heartbeatValue(gone, now), "live")] },
        {
          at: now + 5_000,
          ops: () => [
            put(
              keys.assignment(p, target, unitId),
              JSON.stringify({
                v: 1,
                unit_id: unitId,
                kind: "merge_wal",
                target,
                needs_write_turn: true,
                executor: gone.id,
                planner_token: this.leaderToken,
                reserved_slots: { merge_wal: 1 },
                reserved_bytes: 1024 ** 3,
                state: "assigned",
                created_ms: now + 5_000,
                bind_deadline_ms: now + 5_000 + BIND_TIMEOUT_MS,
              }),
            ),
          ],
        },
        // the executor dies before it binds: the assignment is an orphan until released
        { at: now + 10_000, ops: () => [del(keys.executor(p, gone.id))] },
      );
    }
    while (this.pending.length > 0 && this.pending[0].at <= now) ops.push(...this.pending.shift()!.ops());
    return { ops, publishes: [] };
  }
}
