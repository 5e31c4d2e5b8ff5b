import "server-only";
export * from "./types";
export { buildSnapshot, familyOfKey, familyPrefix, parseKvOnce, type KvsByFamily } from "./build";
export { FAMILIES, FAMILY_BY_NAME, type FamilyDef } from "./families";
export { createFleetReader, readFleet, readFleetWithKvs, type FleetRead, type FleetReader, type FleetReaderOptions, type ReadFleetOptions } from "./read";
