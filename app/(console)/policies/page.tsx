// `/policies`: the fleet default and the per-table overrides (console-api.md GET /api/v1/policies).
import { PoliciesList } from "@/components/policies/policies-list";
import { SessionBar } from "@/components/policies/session-bar";
import { currentViewer } from "@/app/viewer";

export const dynamic = "force-dynamic";
export const metadata = { title: "Policies · Scheduler Console" };

export default async function PoliciesPage() {
  const viewer = await currentViewer();
  return (
    <>
      <SessionBar
        actor={viewer.principal.actor}
        role={viewer.principal.role}
        next="/policies"
        session={viewer.session}
      />
      <PoliciesList canWrite={viewer.canWrite} readOnly={viewer.readOnly} />
    </>
  );
}
