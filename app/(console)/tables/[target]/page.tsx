// `/tables/[target]`: one table in depth. The target travels URL-encoded.
import { Suspense } from "react";
import { TableDetailView } from "@/components/tables/table-detail";

export async function generateMetadata({ params }: { params: Promise<{ target: string }> }) {
  const { target } = await params;
  return { title: `${decodeTarget(target)} · Scheduler Console` };
}

function decodeTarget(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export default async function TableDetailPage({ params }: { params: Promise<{ target: string }> }) {
  const { target } = await params;
  return (
    <Suspense fallback={<div className="state state-loading">Loading table…</div>}>
      <TableDetailView target={decodeTarget(target)} />
    </Suspense>
  );
}
