// The engine built beside Next's build (scripts/bundle.mjs engine writes `.next-engine/engine.cjs`, beside `.next`),
// required once per process: Next leaves this package external (next.config.mjs), so every route
// chunk, the start-up hook and the custom server (scripts/serve.mjs) get this one module. npm
// installs this package as a copy (.npmrc `install-links`): Next keeps external only what it
// finds inside node_modules, not a link out of it.
const fs = require("node:fs");
const path = require("node:path");

/** the console's folder: the nearest one above this package with the console's next.config.mjs */
function consoleRoot() {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "next.config.mjs"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no console folder above ${__dirname}`);
  }
}

const distDir = path.resolve(consoleRoot(), process.env.NEXT_DIST_DIR || ".next");
module.exports = require(`${distDir}-engine/engine.cjs`);
