// `/facts`: the fleet's open questions answered from its own records (console-api.md `GET /fleet/facts`).
import { Suspense } from "react";
import { FactsView } from "@/components/takeover/facts-view";

export const metadata = { title: "Fleet facts · Scheduler Console" };

export default function FactsPage() {
  return (
    <Suspense fallback={<div className="state state-loading">Loading fleet facts…</div>}>
      <FactsView />
    </Suspense>
  );
}
