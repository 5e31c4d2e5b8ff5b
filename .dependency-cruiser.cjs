// The house rules of ../shared/STYLE.md as dependency-cruiser rules, checked by
// lib/layers.test.ts inside `npm test` (a violation fails CI). Paths are relative to the
// repository root. Tests, fixtures and test support are outside the layering rules (they
// may reach any layer to set it up) but not outside the cycle rule.
const path = require("node:path");

const TESTS = "(\\.test\\.tsx?$|/__fixtures__/)";
/** modules that only run on the server (etcd, secrets, the process's caches and metrics) */
const SERVER =
  "^(lib/(etcd|snapshot|live|http|time|policies|takeover|scheduler|process|offload|metrics|config|auth|sim)/|server-only$|instrumentation\\.ts$|proxy\\.ts$)";
/** every module of the console itself (not node_modules, not node's own) */
const CONSOLE = "^(lib|app|components|bin|scripts|packages)/|^(proxy|instrumentation)\\.ts$";
/** the services that answer routes (above lib/live, which serves them) */
const SERVICES = "^lib/(http|time|policies|takeover|scheduler|process|offload)/";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "planner-is-pure",
      comment:
        "lib/planner imports only lib/planner, lib/schema and the generic helpers of lib/util: no I/O, no etcd, no clock (STYLE.md)",
      severity: "error",
      from: { path: "^lib/planner/", pathNot: TESTS },
      to: { pathNot: "^lib/(planner|schema|util)/" },
    },
    {
      name: "only-lib-etcd-imports-etcd3",
      comment: "only lib/etcd talks to etcd (STYLE.md: leases and txns included)",
      severity: "error",
      from: { pathNot: `^lib/etcd/|${TESTS}` },
      to: { path: "(^|/)node_modules/(etcd3|@grpc)/" },
    },
    {
      name: "only-lib-etcd-unwraps-the-client",
      comment:
        "outside lib/etcd a client is an opaque EtcdClient handle (hold it, pass it, close it): " +
        "only lib/etcd unwraps it (lib/etcd/raw.ts) and calls etcd; tests and tools may, to seed and inspect",
      severity: "error",
      from: { pathNot: `^lib/etcd/|${TESTS}` },
      to: { path: "^lib/etcd/raw\\.ts$" },
    },
    {
      name: "client-imports-no-server-module",
      comment:
        "components and lib/client run in the browser: no server module (Next's data-security guide). " +
        "A type-only import is erased at build time and ships nothing, so it may name a server type.",
      severity: "error",
      from: { path: "^(components|lib/client)/", pathNot: TESTS },
      to: { path: SERVER, dependencyTypesNot: ["type-only"] },
    },
    {
      name: "api-handlers-are-thin",
      comment:
        "app/api route handlers are parse, call, return behind apiHandler: they import the engine " +
        "(lib/engine/index.ts, through its package) and Next, nothing else",
      severity: "error",
      from: { path: "^app/api/", pathNot: TESTS },
      to: { pathNot: "^app/api/|(^|/)node_modules/(@scheduler-console/engine|next)/|server-only$" },
    },
    {
      name: "app-reaches-state-through-the-engine",
      comment:
        "Next bundles each route and page with its own copy of the modules it imports: what holds the " +
        "process's state (server modules) is reached through the engine, loaded once per process " +
        "(lib/engine/index.ts; issue 46). A type-only import is erased at build time and loads nothing.",
      severity: "error",
      from: { path: "^(app|components)/|^(proxy|instrumentation)\\.ts$", pathNot: TESTS },
      to: { path: SERVER, pathNot: "server-only$", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "the-engine-never-loads-itself",
      comment:
        "lib is the engine's source: it never imports the engine's package (that would load a second copy " +
        "beside the one it is part of)",
      severity: "error",
      from: { path: "^lib/" },
      to: { path: "(^|/)node_modules/@scheduler-console/engine/" },
    },
    {
      name: "live-does-not-import-services",
      comment: "data flows one way: lib/live serves the HTTP shell and the services, never the reverse",
      severity: "error",
      from: { path: "^lib/live/" },
      to: { path: SERVICES },
    },
    {
      name: "metrics-import-no-upper-layer",
      comment:
        "lib/live, lib/snapshot and the services record metrics, so lib/metrics (the metrics and their setters) " +
        "depends on none of them nor on the planner nor on lib/etcd; what a scrape reads from the live plan lives in lib/process. " +
        "The one planner module allowed is the verdict-code list (why-not.ts, imports nothing): the fixed label values of a gauge.",
      severity: "error",
      from: { path: "^lib/metrics/", pathNot: TESTS },
      to: {
        path: "^lib/(etcd|http|time|policies|takeover|scheduler|process|live|snapshot|planner)/",
        pathNot: "^lib/planner/plan/why-not\\.ts$",
      },
    },
    {
      name: "schema-is-the-ground-floor",
      comment: "lib/schema (the records, the API's shapes, keys and formats) imports no other layer of the console",
      severity: "error",
      from: { path: "^lib/schema/", pathNot: TESTS },
      to: { path: CONSOLE, pathNot: "^lib/schema/" },
    },
    {
      name: "util-is-generic",
      comment:
        "lib/util holds the few generic helpers (a bounded map, a deadline, a pool, lazily …) that know nothing " +
        "of the console: they import no module of it, so any floor may use them",
      severity: "error",
      from: { path: "^lib/util/", pathNot: TESTS },
      to: { path: CONSOLE, pathNot: "^lib/util/" },
    },
    {
      name: "etcd-imports-only-schema-and-config",
      comment:
        "lib/etcd is the floor above lib/schema: it imports only lib/schema, lib/config and the generic " +
        "helpers of lib/util, so nothing it does depends on the planner, the cache or the services",
      severity: "error",
      from: { path: "^lib/etcd/", pathNot: TESTS },
      to: { path: CONSOLE, pathNot: "^lib/(etcd|schema|config|util)/" },
    },
    {
      name: "http-never-imports-etcd",
      comment: "lib/http is the HTTP shell: what needs etcd is a service's (lib/time, lib/policies, ...)",
      severity: "error",
      from: { path: "^lib/http/", pathNot: TESTS },
      to: { path: "^lib/etcd/" },
    },
    {
      name: "snapshot-never-imports-live-or-http",
      comment: "lib/snapshot is one revision's state: it knows nothing of the watch, the process's cache or HTTP",
      severity: "error",
      from: { path: "^lib/snapshot/", pathNot: TESTS },
      to: { path: "^lib/(live|http)/" },
    },
    {
      name: "cli-never-imports-components",
      comment: "the command line shares words with the pages through lib/words, never through components/",
      severity: "error",
      from: { path: "^lib/cli/", pathNot: TESTS },
      to: { path: "^components/" },
    },
    {
      name: "pages-stay-off-etcd-live-and-snapshot",
      comment:
        "pages (app/ outside app/api, and components/) render the server's answer: they read it through " +
        "lib/client, never from etcd, the live cache or a snapshot (type-only imports included)",
      severity: "error",
      from: { path: "^(app|components)/", pathNot: `^app/api/|${TESTS}` },
      to: { path: "^lib/(etcd|live|snapshot)/" },
    },
    {
      name: "entry-points-import-no-page-code",
      comment: "bin/ and scripts/ run under node outside Next: they import no app/ or components/ module",
      severity: "error",
      from: { path: "^(bin|scripts)/" },
      to: { path: "^(app|components)/" },
    },
    {
      name: "no-cycles",
      comment: "modules depend one way",
      severity: "error",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: path.join(__dirname, "tsconfig.json") },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
    builtInModules: { add: ["server-only"] },
  },
};
