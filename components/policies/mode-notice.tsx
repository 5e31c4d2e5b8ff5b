// What a save changes today, given the tables' `mode` (scheduler-model.md §7.3): in P1
// the master reads no policy; mode `legacy` (the default) leaves every table on the
// master's task queue, so the save changes the console's model and preview only.
import type { PreviewResponse } from "@/lib/schema/api/policies";
import styles from "./policies.module.css";
import { formatCount } from "@/components/ui/format";

const n = formatCount;

export function ModeNotice({ modes, targetMode }: { modes: PreviewResponse["modes"] | null; targetMode: string }) {
  const legacy = modes?.legacy ?? 0;
  const total = modes ? Object.values(modes).reduce((a, b) => a + (b ?? 0), 0) : 0;
  const other = total - legacy;
  return (
    <p className={styles.notice} data-testid="mode-notice">
      <strong>What this save changes today:</strong>{" "}
      {modes === null
        ? targetMode === "legacy"
          ? "this policy's mode is legacy: the save changes the console's model and preview only. The master reads policies only from P2 (mode planner)."
          : `this policy's mode is ${targetMode}: the save takes effect only on policy-aware (P2) masters; a P1 master reads no policy.`
        : other === 0
          ? `all ${n(total)} tables are in mode legacy: the save changes the console's model and preview only. The master does not read policies; it reads them only from P2 (mode planner).`
          : `${n(legacy)} of ${n(total)} tables are in mode legacy (console model and preview only); for the ${n(other)} that are not, the save takes effect only on policy-aware (P2) masters. A P1 master reads no policy.`}
    </p>
  );
}
