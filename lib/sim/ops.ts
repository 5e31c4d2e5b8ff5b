// What one step of the live world writes, before it is written: puts and deletes in the
// master's wire format, and the leases they ride on by name (./live.ts grants them).

/** `live`: the simulator's own short lease, kept alive (heartbeats, leader, claims); `cooldown`: TASK_COOLDOWN_MAX_SECS (§9.2). */
export type SimLease = "live" | "cooldown";

export type SimOp = { type: "put"; key: string; value: string; lease?: SimLease } | { type: "delete"; key: string };

export const put = (key: string, value: string, lease?: SimLease): SimOp =>
  lease ? { type: "put", key, value, lease } : { type: "put", key, value };
export const del = (key: string): SimOp => ({ type: "delete", key });
