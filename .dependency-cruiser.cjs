// The house rules of /work/shared/STYLE.md as dependency-cruiser rules, checked by
// lib/layers.test.ts inside `npm test` (a violation fails CI). Paths are relative to the
// repository root. Tests, fixtures and test support are outside the layering rules (they
// may reach any layer to set it up) but not outside the cycle rule.
const path = require("node:path");

const TESTS = "(\\.test\\.tsx?$|/__fixtures__/)";
/** modules that only run on the server (etcd, secrets, the process's caches and metrics) */
const SERVER = "^(lib/(etcd|snapshot|live|api|metrics|config|auth|sim)/|server-only$|instrumentation\\.ts$|proxy\\.ts$)";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "planner-is-pure",
      comment: "lib/planner imports only lib/planner and lib/schema: no I/O, no etcd, no clock (STYLE.md)",
      severity: "error",
      from: { path: "^lib/planner/", pathNot: TESTS },
      to: { pathNot: "^lib/(planner|schema)/" },
    },
    {
      name: "only-lib-etcd-imports-etcd3",
      comment: "only lib/etcd talks to etcd (STYLE.md: leases and txns included)",
      severity: "error",
      from: { pathNot: `^lib/etcd/|${TESTS}` },
      to: { path: "(^|/)node_modules/(etcd3|@grpc)/" },
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
      comment: "app/api route handlers import only lib/api and lib/schema (parse, call, return behind apiHandler)",
      severity: "error",
      from: { path: "^app/api/", pathNot: TESTS },
      to: { pathNot: "^(app/api/|lib/(api|schema)/|(^|/)node_modules/(next|zod)/|server-only$)" },
    },
    {
      name: "live-does-not-import-api",
      comment: "data flows one way: lib/live serves lib/api, never the reverse",
      severity: "error",
      from: { path: "^lib/live/" },
      to: { path: "^lib/api/" },
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
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"], extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"] },
    builtInModules: { add: ["server-only"] },
  },
};
