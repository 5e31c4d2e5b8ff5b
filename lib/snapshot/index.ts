import "server-only";
export * from "./types";
export { createFleetReader } from "./read";
