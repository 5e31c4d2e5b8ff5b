// `/tables`: every table in one virtualized list.
import { Suspense } from "react";
import { TablesList } from "@/components/tables/tables-list";

export const metadata = { title: "Tables · Scheduler Console" };

export default function TablesPage() {
  return (
    <Suspense fallback={<div className="state state-loading">Loading tables…</div>}>
      <TablesList />
    </Suspense>
  );
}
