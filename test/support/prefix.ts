import { randomBytes } from "node:crypto";

/** A fresh etcd prefix per test, so tests sharing one etcd never see each other's keys. */
export function testPrefix(name: string): string {
  return `/test-${name}-${randomBytes(4).toString("hex")}/lance-context/master`;
}
