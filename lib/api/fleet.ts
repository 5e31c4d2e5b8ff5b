import "server-only";
// The fleet view a request asked for (pinned `?revision=` or live), for route handlers:
// they import lib/api and lib/schema only (.dependency-cruiser.cjs "api-handlers-are-thin").
export { fleetView, type FleetView } from "@/lib/live/cache";
