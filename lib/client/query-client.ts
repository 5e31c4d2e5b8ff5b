// The shared QueryClient factory (create-t3-app shape): one per request on the server,
// one per tab in the browser. staleTime > 0 so hydrated data isn't refetched at once.
import { QueryClient, isServer } from "@tanstack/react-query";
import { ApiError } from "./fetch-json";

/** Live data refreshes this often (a few seconds). */
export const LIVE_REFETCH_MS = 5000;

function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 2000,
        // A client error (404, 410, 400) won't heal by retrying; etcd outages are
        // covered by the next refetch, which keeps the last good data meanwhile. A heavy read
        // refused with 503 overloaded (console-api.md "Overload and memory") is asked again
        // when the server says the queue may have room (Retry-After), a few times.
        retry: (failures, error) =>
          overloaded(error) ? failures < 3 : !(error instanceof ApiError && error.status < 500) && failures < 1,
        retryDelay: (failures, error) =>
          overloaded(error) ? (error.body?.retry_after_ms ?? 1000) : Math.min(1000 * 2 ** failures, 30_000),
        refetchOnWindowFocus: false,
      },
      // a write is never repeated behind the admin's back: a 4xx is an answer, and a lost
      // answer to a CAS write is settled by reading again, not by sending it twice
      mutations: { retry: false },
    },
  });
}

const overloaded = (error: unknown): error is ApiError => error instanceof ApiError && error.code === "overloaded";

let browserQueryClient: QueryClient | undefined;

export function getQueryClient(): QueryClient {
  if (isServer) return makeQueryClient();
  browserQueryClient ??= makeQueryClient();
  return browserQueryClient;
}
