// The engine: the console's stateful core, loaded once per process (console-api.md "Overload
// and memory"; issue 46 "One engine per process"). Next bundles each route into its own
// chunks, each with its own copy of module state; the engine is built apart
// (scripts/bundle.mjs engine) and required as a plain Node module through the
// `@scheduler-console/engine` package (next.config.mjs `serverExternalPackages`), so the live
// view, the plans, the journal writer, the sampler, the revision clock, the pinned views, the
// etcd client and the metrics exist once, whichever route or page asks. Route handlers,
// server components and the start-up hook import from here and from nowhere else in `lib`
// that holds state (.dependency-cruiser.cjs "app-through-the-engine").
//
// This file is the engine's whole interface: what a route, a page or the start-up hook calls.

// start-up
export { checkEnvOrExit } from "@/lib/config/check-env";
export { startBackground } from "@/lib/process/background";

// the request wrapper; the reads asked most, which the custom server answers directly
export { apiHandler, json } from "@/lib/http/handler";
export { answerDirectly, directGet } from "./direct";
export { notFound } from "@/lib/schema/api/errors";

// sessions and who is looking
export { viewerOf, type Viewer } from "@/lib/auth/viewer";
export { safeNext, signInOrOut, signOut, whoAmI } from "@/lib/http/session";
export { finishOidcSignIn, startOidcSignIn } from "@/lib/http/oidc-session";

// the process
export { metricsResponse } from "@/lib/process/metrics";
export { openApiDocument } from "@/lib/http/openapi";

// policies
export {
  deletePolicy,
  getPolicy,
  listPolicies,
  parseTarget,
  previewProposal,
  savePolicy,
  writeHeaders,
} from "@/lib/policies/policies";
export { auditLog } from "@/lib/policies/audit";

// the scheduler, time and the journal
export { demandStream } from "@/lib/scheduler/demand-stream";
export { shadowHistory } from "@/lib/scheduler/shadow";
export { demandHistory } from "@/lib/time/history";
export { forecastCalibration } from "@/lib/time/forecast-calibration";
export { journalCoverage } from "@/lib/time/journal-coverage";
export { reasonTargets, schedulerReasons } from "@/lib/time/journal-reasons";
export { revisionTimeOf } from "@/lib/time/revisions";
export { neighbouringChange } from "@/lib/time/changes";

// the takeover
export { canaryReport } from "@/lib/takeover/canary";
export { fleetFacts } from "@/lib/takeover/fleet-facts";
export { fleetMasters } from "@/lib/takeover/fleet-masters";
export { gatesFor } from "@/lib/takeover/gates";

// the queries the routes parse (one copy of each schema: the one the engine's wrapper runs)
export { auditQuerySchema } from "@/lib/schema/api/audit";
export { canaryQuerySchema } from "@/lib/schema/api/canary";
export { noQuerySchema, unreadQuerySchema } from "@/lib/schema/api/common";
export { demandStreamQuerySchema } from "@/lib/schema/api/demand";
export { factsQuerySchema, mastersQuerySchema } from "@/lib/schema/api/fleet";
export { calibrationQuerySchema } from "@/lib/schema/api/forecasts";
export { historyQuerySchema } from "@/lib/schema/api/history";
export { journalCoverageQuerySchema } from "@/lib/schema/api/journal";
export { policyQuerySchema, previewQuerySchema, writeQuerySchema } from "@/lib/schema/api/policies";
export { reasonTargetsQuerySchema, reasonsQuerySchema } from "@/lib/schema/api/reasons";
export { changeQuerySchema, revisionTimeQuerySchema } from "@/lib/schema/api/revisions";
export {
  SIGNIN_MAX_BYTES,
  oidcCallbackQuerySchema,
  oidcLoginQuerySchema,
  sessionGetQuerySchema,
  sessionQuerySchema,
} from "@/lib/schema/api/session";
export { shadowHistoryQuerySchema } from "@/lib/schema/api/shadow";
export { gatesQuerySchema } from "@/lib/schema/api/takeover";

// for tests and benchmarks, through the inspector (test/support/inspector.ts `inEngine`)
export { clearEncodedResponses, forgetExactPlans, forgetRecentChanges } from "./inspection";
