// The pure planner core (scheduler-model.md §3–§6; §8.2 chunking is lib/schema/txn-chunks.ts). No I/O, no clock: `now` is a parameter.
export * from "./mark";
export * from "./fold";
export * from "./derived";
export * from "./join";
export * from "./score";
export * from "./order";
export * from "./headroom";
export * from "./placement";
export * from "./shadow";
export * from "./cache";
