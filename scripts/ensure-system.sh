#!/usr/bin/env bash
# Installs what the console needs from Debian (etcd, etcdctl, chromium, promtool) and npm deps.
# As root it runs apt-get; otherwise it prints one line saying what to install.
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
[ -x /usr/bin/etcd ] || need+=(etcd-server)
[ -x /usr/bin/etcdctl ] || need+=(etcd-client)
# promtool checks the metrics exposition and the shipped alert rules (the server is never run)
[ -x /usr/bin/promtool ] || need+=(prometheus)
if [ "${WITH_CHROMIUM:-1}" = 1 ] && [ ! -x /usr/bin/chromium ]; then need+=(chromium); fi
if ((${#need[@]})); then
  if [ "$(id -u)" = 0 ]; then
    echo "installing Debian packages: ${need[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "missing Debian packages; run: sudo apt-get install -y ${need[*]}" >&2
    exit 1
  fi
fi
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "installing npm dependencies (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
fi
