// `/failures`: failure ledger and cooldowns (§9.1, §9.2).
import { Suspense } from "react";
import { FailuresView } from "@/components/failures/failures-view";

export const metadata = { title: "Failures · Scheduler Console" };

export default function FailuresPage() {
  return (
    <Suspense fallback={<div className="state state-loading">Loading failures…</div>}>
      <FailuresView />
    </Suspense>
  );
}
