// Plain-Node entry shim for the simulator CLI, the benchmarks and the Playwright runner (run by tsx, outside
// Next's server graph): `server-only` throws unless resolved under the "react-server"
// condition, so register its empty stand-in before lib/etcd and lib/snapshot load.
// Import this module first.
import Module from "node:module";

const id = require.resolve("server-only");
const emptyModule = new Module(id);
emptyModule.filename = id;
emptyModule.loaded = true;
emptyModule.exports = {};
require.cache[id] = emptyModule;

export {};
