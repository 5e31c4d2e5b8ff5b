// What the live cache (./cache.ts) reports of itself: for GET /api/v1/health.

export interface CacheStatus {
  revision: number | null;
  age_ms: number | null;
  live: boolean;
}

/** What the cache keeps, for GET /api/v1/health's `memory` */
export interface CacheMemory {
  /** distinct views the plans hold besides the live one (lib/live/plan.ts) */
  held_views: number;
  /** pinned views kept */
  pinned_views: number;
  /** their estimated bytes (./memory-budget.ts) */
  pinned_bytes: number;
}
