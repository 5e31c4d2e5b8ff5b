// The fleet's free bytes, counted only over executors that have a byte budget: an executor
// without one (bytes_total 0) is never byte-checked (spec §5.2), so "0 B free" would lie.
import { formatBytes, formatCount } from "@/components/ui/format";
import type { ExecutorsResponse } from "@/lib/client/api-types";

export function budgetedBytes(e: ExecutorsResponse): { free: number; budgeted: number; unbudgeted: number } {
  const budgeted = e.executors.filter((x) => x.bytes_total > 0);
  const free = budgeted.reduce((sum, x) => sum + Math.max(0, x.bytes_free), 0);
  return { free, budgeted: budgeted.length, unbudgeted: e.executors.length - budgeted.length };
}

export function BytesFreeTotal({ executors }: { executors: ExecutorsResponse }) {
  const { free, budgeted, unbudgeted } = budgetedBytes(executors);
  return (
    <span data-testid="bytes-free-total">
      {formatBytes(free)} free on {formatCount(budgeted)} executor{budgeted === 1 ? "" : "s"} with a byte budget
      {unbudgeted > 0 ? ` (${formatCount(unbudgeted)} more have none and are not byte-checked)` : ""}
    </span>
  );
}
