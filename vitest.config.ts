import { defineConfig } from "vitest/config";
import path from "node:path";

const alias = {
  "@": path.resolve(__dirname),
  "server-only": path.resolve(__dirname, "test/support/server-only-stub.ts"),
  // the engine's sources: a test process is one module graph, so its state is one already
  "@scheduler-console/engine": path.resolve(__dirname, "lib/engine/index.ts"),
};

// `unit` needs no I/O (the pure planner, schemas). `integration` talks to real etcd servers
// started by test/support/global-etcd.ts, one per worker (and, where needed, a real
// `next start` built beforehand by scripts/test.sh): two workers, each running its files one
// at a time on its own etcd. `integration-alone` runs after it, one file at a time with
// nothing beside it: the files that measure time, memory or load, whose figures another
// worker's CPU would bend.
const ALONE = [
  "test/integration/api/memory-budget.test.ts",
  "test/integration/api/overload.test.ts",
  "test/integration/foundation/busy-loop.test.ts",
  "test/integration/reliability/load-smoke.test.ts",
  "test/integration/time/clock-and-compaction.test.ts",
];
export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts"],
          environment: "node",
          // both cores: the unit stage runs alone (scripts/test.sh), and vitest's default on a
          // 2-CPU machine is one worker
          maxWorkers: 2,
          testTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          exclude: ALONE,
          environment: "node",
          globalSetup: ["test/support/global-etcd.ts"],
          maxWorkers: 2,
          testTimeout: 120_000,
          hookTimeout: 180_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration-alone",
          include: ALONE,
          environment: "node",
          globalSetup: ["test/support/global-etcd.ts"],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
