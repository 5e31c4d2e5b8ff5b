// `/canary`: the canary report over a window (console-api.md "The takeover gate and the canary evidence").
import { Suspense } from "react";
import { CanaryReport } from "@/components/takeover/canary-report";

export const metadata = { title: "Canary · Scheduler Console" };

export default function CanaryPage() {
  return (
    <Suspense fallback={<div className="state state-loading">Loading canary report…</div>}>
      <CanaryReport />
    </Suspense>
  );
}
