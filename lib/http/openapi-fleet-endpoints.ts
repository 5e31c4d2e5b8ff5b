import "server-only";
// The contract's entries for the fleet as the planner sees it (tags `scheduler` and `time`):
// demand, executors, assignments, shadow, failures, skipped records, a table's history, two
// moments compared, the revision clock, the journal's coverage and the reasons view.
import { assignmentsQuerySchema, assignmentsResponseSchema } from "@/lib/schema/api/assignments";
import {
  demandChangesSchema,
  demandDetailSchema,
  demandListSchema,
  demandQuerySchema,
  demandStreamQuerySchema,
} from "@/lib/schema/api/demand";
import { executorsQuerySchema, executorsResponseSchema } from "@/lib/schema/api/executors";
import { failuresQuerySchema, failuresResponseSchema } from "@/lib/schema/api/failures";
import { journalCoverageSchema, journalCoverageQuerySchema } from "@/lib/schema/api/journal";
import {
  reasonTargetsQuerySchema,
  reasonTargetsResponseSchema,
  reasonsQuerySchema,
  reasonsResponseSchema,
} from "@/lib/schema/api/reasons";
import {
  shadowHistoryQuerySchema,
  shadowHistoryResponseSchema,
  shadowQuerySchema,
  shadowResponseSchema,
} from "@/lib/schema/api/shadow";
import { skippedQuerySchema, skippedResponseSchema } from "@/lib/schema/api/skipped";
import { changeQuerySchema, revisionTimeSchema, revisionTimeQuerySchema } from "@/lib/schema/api/revisions";
import { historyQuerySchema, historyResponseSchema } from "@/lib/schema/api/history";
import { diffQuerySchema, diffResponseSchema } from "@/lib/schema/api/diff";
import { READ_ERRORS, type Endpoint } from "./openapi-endpoint";

export const FLEET_ENDPOINTS: Endpoint[] = [
  {
    method: "get",
    path: "/api/v1/scheduler/demand",
    operationId: "getDemand",
    tag: "scheduler",
    access: "read",
    summary:
      "Demand list (planner order, filters, cursor paging), its changes since a listing (?since=), or one table with ?target=",
    query: demandQuerySchema,
    headers: ["If-None-Match"],
    responses: {
      "200": {
        description: "the list, the changes since a listing, or one table",
        schema: [demandListSchema, demandChangesSchema, demandDetailSchema],
        cached: true,
      },
    },
    errors: [...READ_ERRORS, "404"],
  },
  {
    method: "get",
    path: "/api/v1/scheduler/demand/stream",
    operationId: "streamDemand",
    tag: "scheduler",
    access: "read",
    summary:
      "The live listing's changes, pushed as Server-Sent Events: one `changes` event (a demandChanges body, `id:` its listing) per plan step, the same bytes for every open stream of the same filters and sort. `since` (or a reconnect's Last-Event-ID) names the listing the page holds; an event whose `changes.since` is another, or `changes: null`, means read the listing again. Live only; every event carries its `revision` (read-your-writes: wait for an event at or after the write)",
    query: demandStreamQuerySchema,
    responses: {
      "200": {
        description: "text/event-stream; each `data:` line is one demandChanges body",
        text: "text/event-stream",
      },
    },
    errors: ["400", "401", "503", "504"],
  },
  {
    method: "get",
    path: "/api/v1/scheduler/executors",
    operationId: "getExecutors",
    tag: "scheduler",
    access: "read",
    summary: "Executors with headroom and orphan rows",
    query: executorsQuerySchema,
    headers: ["If-None-Match"],
    responses: { "200": { description: "executors", schema: executorsResponseSchema, cached: true } },
    errors: READ_ERRORS,
  },
  {
    method: "get",
    path: "/api/v1/scheduler/assignments",
    operationId: "getAssignments",
    tag: "scheduler",
    access: "read",
    summary: "Live assignments with bind age and overdue flag",
    query: assignmentsQuerySchema,
    responses: { "200": { description: "assignments", schema: assignmentsResponseSchema } },
    errors: READ_ERRORS,
  },
  {
    method: "get",
    path: "/api/v1/scheduler/shadow",
    operationId: "getShadow",
    tag: "scheduler",
    access: "read",
    summary: "Shadow comparison: outcomes and placements, console vs master",
    query: shadowQuerySchema,
    headers: ["If-None-Match"],
    responses: { "200": { description: "the comparison", schema: shadowResponseSchema, cached: true } },
    errors: READ_ERRORS,
  },
  {
    method: "get",
    path: "/api/v1/scheduler/shadow/history",
    operationId: "getShadowHistory",
    tag: "scheduler",
    access: "read",
    summary: "Shadow outcome counts sampled over time",
    query: shadowHistoryQuerySchema,
    responses: { "200": { description: "samples", schema: shadowHistoryResponseSchema } },
    errors: ["400", "401", "503", "504"],
  },
  {
    method: "get",
    path: "/api/v1/scheduler/failures",
    operationId: "getFailures",
    tag: "scheduler",
    access: "read",
    summary: "Merge failure ledger (read-time corrected) and task cooldowns",
    query: failuresQuerySchema,
    responses: { "200": { description: "failures and cooldowns", schema: failuresResponseSchema } },
    errors: READ_ERRORS,
  },
  {
    method: "get",
    path: "/api/v1/scheduler/skipped",
    operationId: "getSkipped",
    tag: "scheduler",
    access: "read",
    summary: "Records skipped at one revision, with reasons",
    query: skippedQuerySchema,
    responses: { "200": { description: "skipped records", schema: skippedResponseSchema } },
    errors: READ_ERRORS,
  },

  {
    method: "get",
    path: "/api/v1/scheduler/demand/history",
    operationId: "getDemandHistory",
    tag: "time",
    access: "read",
    summary:
      "One table over time: from the decision journal where it covers the window (a point per entry change), else a point per revision at which its own keys changed, each evaluated at its own time (the whole fleet planned there, or past the request's budget the table's own figures with verdict null: never a verdict the pinned page would not give); every point dated as the page pinned at its revision; with the time in each verdict",
    query: historyQuerySchema,
    responses: {
      "200": {
        description: "the points, oldest first, each naming its basis; time_in_state; where compaction cut the history",
        schema: historyResponseSchema,
      },
    },
    errors: [...READ_ERRORS, "404"],
  },
  {
    method: "get",
    path: "/api/v1/scheduler/diff",
    operationId: "getDiff",
    tag: "time",
    access: "read",
    summary:
      "What changed between two moments, each side evaluated at its own time. `from`/`to`: a revision (digits below 10^12), Unix ms (10^12 and up) or an ISO 8601 time with its zone; `from_ms`/`to_ms` still work",
    query: diffQuerySchema,
    responses: { "200": { description: "counts and members of every change", schema: diffResponseSchema } },
    errors: [...READ_ERRORS, "404"],
  },
  {
    method: "get",
    path: "/api/v1/revisions/time",
    operationId: "getRevisionTime",
    tag: "time",
    access: "read",
    summary: "A revision's wall time, or the newest revision at or before a wall time, with its basis and error",
    query: revisionTimeQuerySchema,
    responses: { "200": { description: "the revision and when it was written", schema: revisionTimeSchema } },
    errors: [...READ_ERRORS, "404"],
  },
  {
    method: "get",
    path: "/api/v1/journal/coverage",
    operationId: "getJournalCoverage",
    tag: "time",
    access: "read",
    summary: "The decision journal's span, entries, bytes, retention and gaps (no_sampler, etcd_unavailable, trimmed)",
    query: journalCoverageQuerySchema,
    responses: { "200": { description: "what the journal covers", schema: journalCoverageSchema } },
    errors: READ_ERRORS,
  },
  {
    method: "get",
    path: "/api/v1/scheduler/reasons",
    operationId: "getReasons",
    tag: "time",
    access: "read",
    summary:
      "Due tables by verdict code at each step of a window, from the decision journal. `due`: tables whose journalled class is neither tail nor idle (the entry holds the class, not the score: §6.2's non-tail scored tables); `placed` counts would_place. Defaults: the last hour, about 60 steps; a to_ms up to 5 minutes ahead reads as now",
    query: reasonsQuerySchema,
    responses: { "200": { description: "one point per step, oldest first", schema: reasonsResponseSchema } },
    errors: [...READ_ERRORS, "409"],
  },
  {
    method: "get",
    path: "/api/v1/scheduler/reasons/targets",
    operationId: "getReasonTargets",
    tag: "time",
    access: "read",
    summary:
      "The due tables holding one verdict code (`placed` for would_place) at one moment, from the decision journal (a band of the reasons view, opened)",
    query: reasonTargetsQuerySchema,
    responses: {
      "200": {
        description: "the tables, sorted, and the journal evaluation that held then",
        schema: reasonTargetsResponseSchema,
      },
    },
    errors: [...READ_ERRORS, "409"],
  },
  {
    method: "get",
    path: "/api/v1/revisions/change",
    operationId: "getRevisionChange",
    tag: "time",
    access: "read",
    summary: "The neighbouring revision at which something a page shows changed (step back / forward one change)",
    query: changeQuerySchema,
    responses: { "200": { description: "the neighbouring revision and its time", schema: revisionTimeSchema } },
    errors: [...READ_ERRORS, "404"],
  },
];
