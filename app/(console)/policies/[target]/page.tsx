// `/policies/[target]`: one policy document (console-api.md GET /api/v1/policies/{target}); the form only for admins.
import { PolicyEditor } from "@/components/policies/policy-editor";
import { SessionBar } from "@/components/policies/session-bar";
import { TakeoverGates } from "@/components/takeover/takeover-gates";
import { currentViewer } from "@/lib/auth/server";

export const dynamic = "force-dynamic";

function decodeTarget(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export async function generateMetadata({ params }: { params: Promise<{ target: string }> }) {
  const { target } = await params;
  return { title: `Policy of ${decodeTarget(target)} · Scheduler Console` };
}

export default async function PolicyPage({ params }: { params: Promise<{ target: string }> }) {
  const target = decodeTarget((await params).target);
  const viewer = await currentViewer();
  return (
    <>
      <SessionBar
        actor={viewer.principal.actor}
        role={viewer.principal.role}
        next={`/policies/${encodeURIComponent(target)}`}
      />
      <TakeoverGates target={target} />
      <PolicyEditor target={target} canWrite={viewer.canWrite} readOnly={viewer.readOnly} />
    </>
  );
}
