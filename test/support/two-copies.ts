// Two copies of one module, as two Next route bundles hold them (each bundle loads its own).
import { vi } from "vitest";

export async function twoCopies<T>(load: () => Promise<T>): Promise<[T, T]> {
  vi.resetModules();
  const a = await load();
  vi.resetModules();
  const b = await load();
  return [a, b];
}
