// `/diff`: what changed between two moments (console-api.md "Time", GET /scheduler/diff).
import { Suspense } from "react";
import { DiffView } from "@/components/diff/diff-view";

export const metadata = { title: "What changed · Scheduler Console" };

export default function DiffPage() {
  return (
    <Suspense fallback={<div className="state state-loading">Loading the comparison…</div>}>
      <DiffView />
    </Suspense>
  );
}
