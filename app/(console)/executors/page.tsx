// `/executors`: headroom per executor and live assignments (§2.6, §5.2).
import { Suspense } from "react";
import { MastersSummary } from "@/components/takeover/masters-summary";
import { ExecutorsView } from "@/components/executors/executors-view";

export const metadata = { title: "Executors · Scheduler Console" };

export default function ExecutorsPage() {
  return (
    <Suspense fallback={<div className="state state-loading">Loading executors…</div>}>
      <ExecutorsView />
      <MastersSummary />
    </Suspense>
  );
}
