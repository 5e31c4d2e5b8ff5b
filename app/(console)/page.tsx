// `/`: fleet overview. Data is fetched and refreshed in the browser.
import { Suspense } from "react";
import { MastersSummary } from "@/components/takeover/masters-summary";
import { FleetOverview } from "@/components/fleet/overview";

export default function OverviewPage() {
  return (
    <Suspense fallback={<div className="state state-loading">Loading…</div>}>
      <FleetOverview />
      <MastersSummary />
    </Suspense>
  );
}
