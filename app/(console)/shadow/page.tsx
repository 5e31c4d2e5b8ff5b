// `/shadow`: the shadow canary (scheduler-model.md §6.2).
import { Suspense } from "react";
import { ShadowView } from "@/components/shadow/shadow-view";

export const metadata = { title: "Shadow · Scheduler Console" };

export default function ShadowPage() {
  return (
    <Suspense fallback={<div className="state state-loading">Loading shadow comparison…</div>}>
      <ShadowView />
    </Suspense>
  );
}
