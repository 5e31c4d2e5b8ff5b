// `tasks/` history in the fleet read (console-api.md Additions "Fairness is live"): the
// range starts at the UUIDv7 of `tasksSinceMs` (default read time − 24 h), records parse
// into typed TaskEntry values, and bad ones are skipped and counted.
import { afterAll, describe, expect, it } from "vitest";
import { uuidv7 } from "@/lib/schema/task-id";
import { testPrefix } from "../../support/prefix";
import { readerFor, suiteClient } from "./helpers";

const client = suiteClient();
afterAll(() => client.close());

const HOUR = 3600_000;
const record = (id: string, atMs: number) =>
  JSON.stringify({
    id,
    kind: "merge_wal",
    target: `t-${id.slice(0, 4)}`,
    state: "done",
    enqueued_at: atMs,
    started_at: atMs,
    finished_at: atMs + 1,
  });

describe("tasks/ family", () => {
  it("reads the records of the last 24 h by id, typed, skipping and counting bad ones", async () => {
    const P = testPrefix("tasks");
    const now = Date.now();
    const old = uuidv7(now - 30 * HOUR, 1);
    const edge = uuidv7(now - 23 * HOUR, 2);
    const recent = uuidv7(now - 60_000, 3);
    const broken = uuidv7(now - 120_000, 4);
    await client.put(`${P}/tasks/${old}`).value(record(old, now - 30 * HOUR));
    await client.put(`${P}/tasks/${edge}`).value(record(edge, now - 23 * HOUR));
    await client.put(`${P}/tasks/${recent}`).value(record(recent, now - 60_000));
    await client.put(`${P}/tasks/${broken}`).value("{ not json");

    const reader = readerFor(client, P);
    const snap = await reader.readFleet();
    expect(snap.tasks.map((t) => t.taskId)).toEqual([edge, recent]);
    expect(snap.tasks[1]).toMatchObject({
      key: `${P}/tasks/${recent}`,
      taskId: recent,
      task: { id: recent, kind: "merge_wal", state: "done", started_at: now - 60_000 },
    });
    expect(snap.skipped.filter((s) => s.family === "tasks").map((s) => [s.key, s.reason])).toEqual([
      [`${P}/tasks/${broken}`, "bad_json"],
    ]);

    // an explicit start (pinned reads pass revision time − 24 h) moves the range, also for a
    // revision the reader has cached with the default window
    const rev = snap.revision;
    expect((await reader.readFleet({ revision: rev })).tasks.map((t) => t.taskId)).toEqual([edge, recent]);
    const wide = await reader.readFleet({ revision: rev, tasksSinceMs: now - 31 * HOUR });
    expect(wide.tasks.map((t) => t.taskId)).toEqual([old, edge, recent]);
    expect(wide.revision).toBe(rev);
  });
});
