import "server-only";
// GET /api/v1/openapi.json: OpenAPI 3.1 generated from the zod schemas of lib/schema/api
// (zod 4 JSON Schema output), so the contract served and the code cannot drift.
import { z } from "zod";
import { errorBody } from "@/lib/schema/api/common";
import { assignmentsQuery, assignmentsResponse } from "@/lib/schema/api/assignments";
import { demandDetail, demandList, demandQuery } from "@/lib/schema/api/demand";
import { executorsQuery, executorsResponse } from "@/lib/schema/api/executors";
import { failuresQuery, failuresResponse } from "@/lib/schema/api/failures";
import { healthResponse } from "@/lib/schema/api/health";
import { shadowHistoryQuery, shadowHistoryResponse, shadowQuery, shadowResponse } from "@/lib/schema/api/shadow";
import { skippedQuery, skippedResponse } from "@/lib/schema/api/skipped";

type JsonSchema = Record<string, unknown>;

function schemaOf(s: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, { io, unrepresentable: "any" }) as JsonSchema;
  return rest;
}

/** Query object schema → OpenAPI parameters (repeatable params become arrays, `explode`). */
function parameters(query: z.ZodType): JsonSchema[] {
  const json = schemaOf(query, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, schema]) => ({
    name,
    in: "query",
    required: json.required?.includes(name) ?? false,
    schema,
    ...(JSON.stringify(schema).includes('"array"') ? { style: "form", explode: true } : {}),
  }));
}

const ERRORS = {
  "400": "invalid_query: a parameter failed validation (issues list each)",
  "404": "not_found",
  "410": "revision_compacted: the pinned revision was compacted (compact_revision)",
  "503": "etcd_unavailable: no etcd member answered (retry_after_ms)",
  "504": "etcd_timeout",
};

function operation(summary: string, query: z.ZodType, response: z.ZodType | z.ZodType[], errors: (keyof typeof ERRORS)[]): JsonSchema {
  const ok = Array.isArray(response) ? { oneOf: response.map((r) => schemaOf(r, "output")) } : schemaOf(response, "output");
  const responses: Record<string, unknown> = { "200": { description: "OK", content: { "application/json": { schema: ok } } } };
  for (const code of errors) responses[code] = { description: ERRORS[code], content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
  return { get: { summary, parameters: parameters(query), responses } };
}

const READ_ERRORS: (keyof typeof ERRORS)[] = ["400", "410", "503", "504"];

export function openApiDocument(): JsonSchema {
  return {
    openapi: "3.1.0",
    info: { title: "Scheduler Console API", version: "1", description: "console-api.md: the read API of the lance-context scheduler console." },
    paths: {
      "/api/v1/scheduler/demand": operation("Demand list (planner order, filters, cursor paging) or one table with ?target=", demandQuery, [demandList, demandDetail], [...READ_ERRORS, "404"]),
      "/api/v1/scheduler/executors": operation("Executors with headroom and orphan rows", executorsQuery, executorsResponse, READ_ERRORS),
      "/api/v1/scheduler/assignments": operation("Live assignments with bind age and overdue flag", assignmentsQuery, assignmentsResponse, READ_ERRORS),
      "/api/v1/scheduler/shadow": operation("Shadow comparison: outcomes and placements, console vs master", shadowQuery, shadowResponse, READ_ERRORS),
      "/api/v1/scheduler/shadow/history": operation("Shadow outcome counts sampled once a minute", shadowHistoryQuery, shadowHistoryResponse, ["400", "503", "504"]),
      "/api/v1/scheduler/failures": operation("Merge failure ledger (read-time corrected) and task cooldowns", failuresQuery, failuresResponse, READ_ERRORS),
      "/api/v1/scheduler/skipped": operation("Records skipped at one revision, with reasons", skippedQuery, skippedResponse, READ_ERRORS),
      "/api/v1/health": {
        get: {
          summary: "etcd endpoints, leader and live-cache state; 503 when no endpoint answers",
          responses: {
            "200": { description: "etcd answers", content: { "application/json": { schema: schemaOf(healthResponse, "output") } } },
            "503": { description: "no endpoint answers (status down), or the first full read and plan are not done yet (status starting)", content: { "application/json": { schema: schemaOf(healthResponse, "output") } } },
          },
        },
      },
      "/api/metrics": { get: { summary: "Prometheus metrics", responses: { "200": { description: "text/plain exposition format" } } } },
    },
    components: { schemas: { Error: schemaOf(errorBody, "output") } },
  };
}
