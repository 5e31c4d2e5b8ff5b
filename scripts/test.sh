#!/usr/bin/env bash
# `npm test`: every suite, against real parts. Starts its own etcd servers (vitest
# globalSetup / test support), a real `next start` and headless Chromium (Playwright),
# on free loopback ports, and stops them after. Prints a final `N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-system.sh || exit 1
mkdir -p reports
rm -f reports/*.json reports/*.stage
export NEXT_TELEMETRY_DISABLED=1

stage() { # name, command...: runs one stage; a stage that dies without a report counts as one failure
  local name=$1; shift
  echo "=== $name ==="
  local started=$SECONDS
  "$@"
  local rc=$?
  echo "$rc" > "reports/$name.stage"
  echo "=== $name: exit $rc after $((SECONDS - started)) s ==="
  return 0
}

only=${TEST_ONLY:-lint,unit,build,integration,e2e}
# lint: ESLint (Next's core-web-vitals + TypeScript rules), Prettier's check and knip (unused
# files, exports and dependencies), each a stage
# (ESLint and Prettier at once, one per core, their output printed after, one then the other)
case ",$only," in *,lint,*)
  stage eslint npm run -s lint > reports/eslint.log 2>&1 &
  stage prettier npm run -s format:check > reports/prettier.log 2>&1 &
  wait
  cat reports/eslint.log reports/prettier.log
  stage knip npm run -s knip ;;
esac
case ",$only," in *,unit,*) stage unit npx vitest run --project unit --reporter=default --reporter=json --outputFile.json=reports/unit.json ;; esac
case ",$only," in *,build,*) stage build npm run -s build ;; esac
if [ -f .next/BUILD_ID ]; then
  case ",$only," in *,integration,*) stage integration npx vitest run --project integration --project integration-alone --reporter=default --reporter=json --outputFile.json=reports/integration.json ;; esac
  case ",$only," in *,e2e,*) PLAYWRIGHT_JSON_OUTPUT_NAME=reports/e2e.json stage e2e npx playwright test --reporter=list,json ;; esac
fi
node scripts/summarize.mjs
