// The fleet simulator, for the demo, tests and benchmarks (see README.md here).
export { assertLoopback, isLoopbackEndpoint, RemoteEndpointRefused } from "./loopback";
export { loadKvs, type LoadOptions, type LoadResult } from "./load";
export { publishDemandEvent, PublishError, PUBLISH_ATTEMPTS } from "./publish";
export { runLive, type LiveOptions, type LiveStats } from "./live";
export { scenarioKvs, seedScenarios, SCENARIOS, isScenario, type ScenarioName, type SeedOptions } from "./seed";
export { type SeedKv } from "./seed-kv";
export { INCIDENT, INCIDENT_PENDING } from "./scenarios/incidents";
export { PRODUCTION_SHARDS, PRODUCTION_TABLES, productionTarget } from "./scenarios/production";
export { GIANT_TABLE, HOT_TABLES, REALISTIC_BACKLOG_TABLES, REALISTIC_TABLES, realisticTables, realisticTarget } from "./scenarios/realistic";
export { LARGE_SMALL_SHARDS, LARGE_SMALL_TABLES, LARGE_WIDE_SHARDS, LARGE_WIDE_TABLES, largeTarget } from "./scenarios/large-records";
export { fleetExecutors, LEADER_INSTANCE } from "./scenarios/fleet";
