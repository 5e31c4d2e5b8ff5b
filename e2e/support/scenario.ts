// What the e2e stack seeds, in one place: the simulator's realistic fleet (13,405 tables,
// lib/sim/scenarios/realistic.ts) plus its named incident tables (lib/sim/README.md).
export {
  GIANT_TABLE,
  HOT_TABLES,
  REALISTIC_TABLES as PRODUCTION_TABLES,
  realisticTables,
} from "@/lib/sim/scenarios/realistic";
export { LEADER_INSTANCE } from "@/lib/sim/scenarios/fleet";

export { INCIDENT, INCIDENT_PENDING } from "@/lib/sim/scenarios/incidents";
