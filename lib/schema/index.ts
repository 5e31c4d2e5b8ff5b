// Record schemas of every etcd family the console reads (scheduler-model.md §1–§2).
export * from "./parse";
export * from "./numbers";
export * from "./kinds";
export * from "./keys";
export * from "./demand";
export * from "./sealed-times";
export * from "./leader";
export * from "./executors";
export * from "./assignments";
export * from "./tasks";
export * from "./failures";
export * from "./executions";
export * from "./progress";
export * from "./repairs";
