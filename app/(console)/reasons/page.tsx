// `/reasons`: due tables by verdict code over time, from the decision journal (console-api.md "The decision journal").
import { Suspense } from "react";
import { ReasonsView } from "@/components/reasons/reasons-view";

export const metadata = { title: "Reasons over time · Scheduler Console" };

export default function ReasonsPage() {
  return (
    <Suspense fallback={<div className="state state-loading">Loading the reasons…</div>}>
      <ReasonsView />
    </Suspense>
  );
}
