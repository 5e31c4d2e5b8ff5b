// Lets lib/etcd (which imports "server-only") load in the Playwright runner and in
// bench/ui.ts, outside Next's server graph. Like lib/sim/node-entry.ts, but the stub
// module carries a filename: Playwright's loader reads it. Import this first.
import Module from "node:module";

const id = require.resolve("server-only");
const stub = new Module(id);
stub.filename = id;
stub.loaded = true;
stub.exports = {};
require.cache[id] = stub;

export {};
