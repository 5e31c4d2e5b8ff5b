// The engine's interface is lib/engine/index.ts (this package loads its build).
export * from "@/lib/engine";
