// `/policies/[target]`: one policy document (console-api.md GET /api/v1/policies/{target}); the form only for admins.
import { PolicyEditor } from "@/components/policies/policy-editor";
import { SessionBar } from "@/components/policies/session-bar";
import { TakeoverGates } from "@/components/takeover/takeover-gates";
import { currentViewer } from "@/app/viewer";
import { whyReadOnly } from "@/lib/words/rights";

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
  // the rights on this very target (console-api.md "Single sign-on and team rights"): the form only where a save would be allowed
  const viewer = await currentViewer(target);
  return (
    <>
      <SessionBar
        actor={viewer.principal.actor}
        role={viewer.principal.role}
        next={`/policies/${encodeURIComponent(target)}`}
        session={viewer.session}
      />
      <TakeoverGates target={target} />
      <PolicyEditor
        target={target}
        canWrite={viewer.canWrite}
        readOnly={viewer.readOnly}
        whyReadOnly={whyReadOnly(viewer.session, target)}
      />
    </>
  );
}
