// `/shadow`: the shadow canary (issue 5, spec §6.2).
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
