// `/skipped`: records skipped at read time, with key and reason (console-api.md "Conventions").
import { Suspense } from "react";
import { SkippedView } from "@/components/fleet/skipped-view";

export const metadata = { title: "Skipped records · Scheduler Console" };

export default function SkippedPage() {
  return (
    <Suspense fallback={<div className="state state-loading">Loading skipped records…</div>}>
      <SkippedView />
    </Suspense>
  );
}
