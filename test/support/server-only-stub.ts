// vitest runs outside React's server graph; the real `server-only` throws there.
export {};
