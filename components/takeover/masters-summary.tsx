"use client";
// "4 of 6 masters apply policies" (console-api.md `GET /fleet/masters`): the takeover gate's
// fleet_homogeneous, shown on the overview and /executors. While etcd is away it keeps its
// last good state (the last good revision's answer, lib/client/resources/last-good.ts) and
// says which revision that is, as the other panels do.
import Link from "next/link";
import { formatCount } from "@/components/ui/format";
import { QueryState } from "@/components/ui/query-state";
import { useOutage } from "@/lib/client/resources/health";
import { useMasters } from "@/lib/client/takeover-hooks";
import { usePinnedRevision, withRevision } from "@/lib/client/revision";
import { useHydrated } from "@/lib/client/use-hydrated";

export function MastersSummary() {
  const masters = useMasters();
  const revision = usePinnedRevision();
  const outage = useOutage();
  const hydrated = useHydrated();
  return (
    <section
      className="panel"
      aria-label="masters applying policies"
      data-testid="masters-summary"
      style={{ marginTop: 12 }}
    >
      <QueryState query={masters} what="masters" quiet>
        {(m) => {
          const aware = m.masters.filter((x) => x.policy_aware).length;
          return (
            <p style={{ margin: 0 }}>
              <strong data-testid="masters-aware">
                {aware} of {m.masters.length} masters apply policies
              </strong>{" "}
              <span className="muted">
                {m.policy_aware_version === null
                  ? "(CONSOLE_POLICY_AWARE_VERSION is unset: no master is known to apply them)"
                  : `(${m.policy_aware_version} or later${
                      m.masters.some((x) => !x.policy_aware)
                        ? `; ${m.masters
                            .filter((x) => !x.policy_aware)
                            .map((x) => `${x.instance} runs ${x.version ?? "no version"}`)
                            .join(", ")}`
                        : ""
                    })`}
                {" · "}
                {m.homogeneous
                  ? "the fleet is homogeneous: a table may switch to mode planner once its evidence is read"
                  : "a table cannot switch to mode planner until every master does"}
                {" · "}
                <Link href={withRevision("/canary", revision)}>canary evidence</Link>
              </span>
              {hydrated && outage.down && (
                <span className="muted" data-testid="masters-last-good">
                  {" "}
                  · the last good state, as of revision {formatCount(m.revision)}: kept while etcd is unreachable
                </span>
              )}
            </p>
          );
        }}
      </QueryState>
    </section>
  );
}
