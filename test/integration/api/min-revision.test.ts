// Read-your-writes through the API without polling (issue 22 item 3b, issue 24): a live read
// with `?min_revision=R` waits on the server (the watch batch that brings R wakes it) and
// answers from a plan at R or later, even when R is a fleet-wide change the live plan would
// otherwise follow only in the background. Past its bound it answers with what it has and
// says so (`X-Min-Revision: timed_out`). Real etcd, the route handler in-process.
import { describe, expect, it } from "vitest";
import { incidentsInProcess } from "./in-process";

const world = incidentsInProcess("min-revision");

async function executors(query: string): Promise<{ status: number; header: string | null; body: unknown }> {
  const { GET } = await import("@/app/api/v1/scheduler/executors/route");
  const res = await GET(new Request(`http://127.0.0.1/api/v1/scheduler/executors${query}`));
  return { status: res.status, header: res.headers.get("x-min-revision"), body: await res.json() };
}

const revisionOf = (body: unknown) => (body as { revision: number }).revision;

describe("?min_revision", () => {
  it("answers once a write at that revision landed, at it or later, from a plan that includes it", async () => {
    const { liveCache } = await import("@/lib/live/cache");
    const first = await executors("");
    expect(first.status).toBe(200);
    expect(first.header).toBeNull();
    for (const [n, target] of [
      [1, "_default"],
      [2, "min-revision/table"],
    ] as const) {
      const current = liveCache().status().revision!;
      const asked = executors(`?min_revision=${current + 1}`);
      // the fleet default is a fleet-wide change: without the floor the live plan follows it in the background
      const written = await world.putPolicy(target, { merge: { min_generations: 10 + n } });
      expect(written).toBeGreaterThanOrEqual(current + 1);
      const answer = await asked;
      expect(answer.status).toBe(200);
      expect(answer.header).toBe("reached");
      expect(revisionOf(answer.body)).toBeGreaterThanOrEqual(written);
    }
  });

  it("past its bound answers with what it has and says so; a pinned read never waits", async () => {
    const { liveCache } = await import("@/lib/live/cache");
    const current = liveCache().status().revision!;
    const late = await executors(`?min_revision=${current + 1_000_000}`);
    expect(late.status).toBe(200);
    expect(late.header).toBe("timed_out");
    expect(revisionOf(late.body)).toBe(current);
    const pinned = await executors(`?revision=${current}&min_revision=${current + 1_000_000}`);
    expect(pinned.status).toBe(200);
    expect(pinned.header).toBeNull();
    expect(revisionOf(pinned.body)).toBe(current);
  });

  it("holds only reads at one revision to it: an answer that is not one (health) never waits", async () => {
    const { liveCache } = await import("@/lib/live/cache");
    const { GET } = await import("@/app/api/v1/health/route");
    const current = liveCache().status().revision!;
    const res = await GET(new Request(`http://127.0.0.1/api/v1/health?min_revision=${current + 1_000_000}`));
    // held to it, it would say timed_out after 5 s (whatever health answers while the process is not started)
    expect(res.headers.get("x-min-revision")).toBeNull();
  });

  it("refuses a min_revision that is not a positive integer (400 invalid_query)", async () => {
    for (const bad of ["abc", "0", "-1", "1&min_revision=2"]) {
      const res = await executors(`?min_revision=${bad}`);
      expect(res.status).toBe(400);
      const error = (res.body as { error: { code: string; issues: { path: string[] }[] } }).error;
      expect(error.code).toBe("invalid_query");
      expect(error.issues[0].path).toEqual(["min_revision"]);
    }
  });
});
