"use client";
// False while React hydrates server HTML, true after. Suspense boundaries hydrate late, and
// by then a shared query (health, fetched by the banner) may already hold data the server
// never had; rendering it during hydration would mismatch the HTML (React error #418).
import { useSyncExternalStore } from "react";

const subscribe = () => () => undefined;

export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
