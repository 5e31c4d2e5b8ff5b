// `/audit`: policy changes with before/after diffs (console-api.md GET /api/v1/audit). The
// filters `target`, `actor`, `from_ms`, `to_ms` and `q` travel in the URL.
import { AuditList } from "@/components/audit/audit-list";
import { filtersOf } from "@/components/audit/filters";
import { currentViewer } from "@/app/viewer";

export const dynamic = "force-dynamic";
export const metadata = { title: "Audit · Scheduler Console" };

export default async function AuditPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const filters = filtersOf(await searchParams);
  const viewer = await currentViewer();
  return (
    <AuditList
      key={JSON.stringify(filters)}
      filters={filters}
      canWrite={viewer.canWrite}
      adminTargets={viewer.session.admin_targets}
    />
  );
}
