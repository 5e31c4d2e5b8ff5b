import "server-only";
export * from "./types";
export { buildSnapshot, emptySnapshot, groupByFamily, type KvsByFamily } from "./build";
export { DemandIndex, eventsOfTarget, foldSnapshot } from "./demand-index";
export { FAMILIES, FAMILY_BY_NAME, LIST_FAMILIES, familyOfKey, familyPrefix, parseFamilyKv, type FamilyDef } from "./families";
export { createFleetReader, readFleet, readFleetWithKvs, type FleetRead, type FleetReader, type FleetReaderOptions, type ReadFleetOptions } from "./read";
