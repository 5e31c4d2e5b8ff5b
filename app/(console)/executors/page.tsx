// `/executors`: headroom per executor and live assignments (issue 5).
import { Suspense } from "react";
import { ExecutorsView } from "@/components/executors/executors-view";

export const metadata = { title: "Executors · Scheduler Console" };

export default function ExecutorsPage() {
  return (
    <Suspense fallback={<div className="state state-loading">Loading executors…</div>}>
      <ExecutorsView />
    </Suspense>
  );
}
