// The fleet simulator, for the demo, tests and benchmarks (see README.md here).
export { loadKvs } from "./load";
export { publishDemandEvent } from "./publish";
export { scenarioKvs, seedScenarios } from "./seed";
export { INCIDENT, INCIDENT_PENDING } from "./scenarios/incidents";
export { PRODUCTION_SHARDS, PRODUCTION_TABLES, productionTarget } from "./scenarios/production";
export { fleetExecutors } from "./scenarios/fleet";
