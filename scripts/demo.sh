#!/usr/bin/env bash
# `npm run demo`: a local etcd on loopback (data in a temp dir), the realistic + incidents
# fleet, the live simulator, and the console on http://localhost:${PORT:-3000}.
# Prints an admin token for this run. Ctrl-C stops everything it started.
set -euo pipefail
cd "$(dirname "$0")/.."
WITH_CHROMIUM=0 scripts/ensure-system.sh

PORT=${PORT:-3000}
free_port() { node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
port_busy() { node -e 'const s=require("net").createServer();s.once("error",()=>process.exit(0));s.listen(+process.argv[1],"127.0.0.1",()=>s.close(()=>process.exit(1)))' "$1"; }

if port_busy "$PORT"; then echo "port $PORT is in use; run with PORT=<free port> npm run demo" >&2; exit 1; fi
if port_busy 2379; then CLIENT_PORT=$(free_port); else CLIENT_PORT=2379; fi
PEER_PORT=$(free_port)
RUN_DIR=$(mktemp -d "${TMPDIR:-/tmp}/console-demo-XXXXXX")
DATA_DIR="$RUN_DIR/etcd"
pids=()
cleanup() {
  trap - INT TERM EXIT
  echo; echo "stopping demo..."
  # each started process with its children (npx → tsx → node), so nothing outlives the demo
  killtree() { local c; for c in $(pgrep -P "$1" 2>/dev/null); do killtree "$c"; done; kill "$1" 2>/dev/null || true; }
  for ((i=${#pids[@]}-1; i>=0; i--)); do killtree "${pids[$i]}"; done
  wait 2>/dev/null || true
  rm -rf "$RUN_DIR"
}
trap cleanup INT TERM EXIT

echo "starting etcd on 127.0.0.1:$CLIENT_PORT (data in $DATA_DIR)"
# etcd that lasts (scripts/demo-etcd.flags: periodic compaction keeping 6 h of history, a
# 4 GiB quota); DEMO_ETCD_RETENTION (e.g. 24h) keeps more history
mapfile -t ETCD_FLAGS < <(grep -v -e '^#' -e '^$' scripts/demo-etcd.flags)
etcd --name demo --data-dir "$DATA_DIR" "${ETCD_FLAGS[@]}" \
  --listen-client-urls "http://127.0.0.1:$CLIENT_PORT" --advertise-client-urls "http://127.0.0.1:$CLIENT_PORT" \
  --listen-peer-urls "http://127.0.0.1:$PEER_PORT" --initial-advertise-peer-urls "http://127.0.0.1:$PEER_PORT" \
  --initial-cluster "demo=http://127.0.0.1:$PEER_PORT" \
  ${DEMO_ETCD_RETENTION:+--auto-compaction-retention="$DEMO_ETCD_RETENTION"} \
  --log-level error --logger zap >"$RUN_DIR/etcd.log" 2>&1 &
pids+=($!)
node -e '
  const url = process.argv[1], end = Date.now() + 30000;
  (async () => { for (;;) {
    try { const r = await fetch(url); if ((await r.json()).health === "true") return; } catch {}
    if (Date.now() > end) { console.error("etcd did not become healthy"); process.exit(1); }
    await new Promise((r) => setTimeout(r, 100));
  } })();' "http://127.0.0.1:$CLIENT_PORT/health"

export ETCD_ENDPOINTS="http://127.0.0.1:$CLIENT_PORT"
export ETCD_PREFIX="${ETCD_PREFIX:-/lance-context/master}"
export PORT NEXT_TELEMETRY_DISABLED=1
# the seed lease outlives the demo (30 days): the incidents' leased keys stay while it runs
npx tsx lib/sim/cli.ts seed --scenario realistic,incidents --lease-ttl-sec 2592000

npx tsx lib/sim/cli.ts simulate --interval-ms 1000 > "$RUN_DIR/simulator.log" 2>&1 &
pids+=($!)
echo "live simulator running (log: $RUN_DIR/simulator.log)"

# built once; again when the engine or the offload worker is missing or was built for another build (their stamps)
dist="${NEXT_DIST_DIR:-.next}"
if [ ! -f "$dist/BUILD_ID" ] || [ ! -f "$dist/offload-worker.cjs" ] || ! cmp -s "$dist/BUILD_ID" "$dist/offload-worker.build-id" ||
  [ ! -f "$dist-engine/engine.cjs" ] || ! cmp -s "$dist/BUILD_ID" "$dist-engine/engine.build-id"; then
  echo "building the console (first run only)..."
  npm run -s build
fi

CONSOLE_ADMIN_TOKENS="${CONSOLE_ADMIN_TOKENS:-demo-admin-$(node -e 'console.log(require("crypto").randomBytes(16).toString("hex"))')}"
export CONSOLE_ADMIN_TOKENS
# the simulator's masters run 0.43.0 (master-a) and 0.42.0 (master-b, upgraded after 10 min):
# the takeover gate's fleet_homogeneous is seen failing, then passing
export CONSOLE_POLICY_AWARE_VERSION="${CONSOLE_POLICY_AWARE_VERSION:-0.43.0}"
node scripts/start.mjs &
pids+=($!)
echo
echo "Scheduler Console: http://localhost:$PORT"
FIRST_TOKEN="${CONSOLE_ADMIN_TOKENS%%,*}"
# a `name:token` item (console-api.md third version): the bearer token is the part after the name
echo "admin token for this run: ${FIRST_TOKEN#*:}"
echo "Ctrl-C stops etcd, the simulator and the console."
wait "${pids[-1]}"
