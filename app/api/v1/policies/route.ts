import { z } from "zod";
import { apiHandler } from "@/lib/api/handler";
import { etcdClient, etcdPrefix } from "@/lib/etcd/client";
import { DEFAULT_POLICY_TARGET, readAllPolicies, type StoredPolicy } from "@/lib/etcd/policy-store";
import { authorized } from "./_lib/http";
import { usableDoc } from "./_lib/view";

export const dynamic = "force-dynamic";

const noQuery = z.object({});

function summary(p: StoredPolicy) {
  const { issue } = usableDoc(p);
  return { target: p.target, stored: p.doc, mod_revision: p.modRevision, stored_issue: issue };
}

// GET /api/v1/policies: `_default` and every per-table override, at one revision.
export async function GET(request: Request): Promise<Response> {
  return apiHandler({ route: "/api/v1/policies", query: noQuery, access: "public" }, async () => {
    const principal = await authorized(request, "read");
    if (principal instanceof Response) return principal;
    const all = await readAllPolicies(etcdClient(), etcdPrefix());
    const fleetDefault = all.defaultPolicy ?? { target: DEFAULT_POLICY_TARGET, doc: null, modRevision: 0 };
    return {
      revision: all.revision,
      read_at_ms: Date.now(),
      default: summary(fleetDefault),
      tables: all.tables.map(summary),
      bad_keys: all.badKeys.length,
    };
  })(request);
}
