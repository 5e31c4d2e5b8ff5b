import { z } from "zod";
import { apiHandler } from "@/lib/api/handler";
import { etcdClient, etcdPrefix } from "@/lib/etcd/client";
import { isAuditCursor, listAudit } from "@/lib/etcd/policy-store";
import { authorized } from "../policies/_lib/http";

export const dynamic = "force-dynamic";

const auditQuery = z.object({
  target: z.string().min(1).max(512).optional(),
  limit: z
    .string()
    .regex(/^\d+$/, "limit must be an integer")
    .transform(Number)
    .pipe(z.number().int().min(1).max(500))
    .optional()
    .transform((v) => v ?? 50),
  cursor: z.string().refine(isAuditCursor, "cursor is not one this endpoint returned").optional(),
});

// GET /api/v1/audit: policy changes, newest first (`target`, `limit`, `cursor`).
export async function GET(request: Request): Promise<Response> {
  return apiHandler({ route: "/api/v1/audit", query: auditQuery, access: "public" }, async ({ query }) => {
    const principal = await authorized(request, "read");
    if (principal instanceof Response) return principal;
    return listAudit(etcdClient(), etcdPrefix(), { target: query.target, limit: query.limit, cursor: query.cursor });
  })(request);
}
