// `/audit`: policy changes with before/after diffs (console-api.md GET /api/v1/audit). `?target=` narrows to one table.
import { AuditList } from "@/components/policies/audit-list";
import { currentViewer } from "@/lib/auth/server";

export const dynamic = "force-dynamic";
export const metadata = { title: "Audit · Scheduler Console" };

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = (await searchParams).target;
  const target = typeof raw === "string" && raw.length > 0 && raw.length <= 512 ? raw : null;
  const viewer = await currentViewer();
  return <AuditList key={target ?? ""} target={target} canWrite={viewer.canWrite} />;
}
