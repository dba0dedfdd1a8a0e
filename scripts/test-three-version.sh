#!/usr/bin/env bash
# Runs the unit and browser tests against another three.js release (the oldest the package claims, in CI):
# installs it without saving over the locked one, clears the bundlers' caches of the old one, runs both
# suites (on a release without three/webgpu, the WebGL ones). The stories, the repository's docs, are checked
# on the locked release only (`npm run test:browser`, `npm run test:static`). Meant for a fresh clone (CI): it leaves that
# three.js installed; `npm ci` restores the locked one.
#   bash scripts/test-three-version.sh 0.187.0
set -euo pipefail
cd "$(dirname "$0")/.."
version="${1:?usage: test-three-version.sh VERSION}"
echo "--- three.js ${version}: install"
npm install --no-save --no-audit --no-fund "three@${version}" </dev/null
installed="$(node -p "JSON.parse(require('fs').readFileSync('node_modules/three/package.json', 'utf8')).version")"
if [ "$installed" != "$version" ]; then
  echo "expected three ${version}, found ${installed}" >&2
  exit 1
fi
# Vite and Storybook keep pre-bundled copies of dependencies keyed by the lockfile, which did not change.
rm -rf node_modules/.vite node_modules/.cache
# A three.js older than react-three-md2/webgpu's floor has no three/webgpu or three/tsl: vitest.config.ts then
# leaves WebGPU out (a stub for both, the tests needing them skipped).
floor="$(sed -n 's/^export const WEBGPU_MIN_REVISION = \([0-9][0-9]*\)$/\1/p' src/three/webgpu/minRevision.ts)"
if [ -z "$floor" ]; then
  echo "WEBGPU_MIN_REVISION not found in src/three/webgpu/minRevision.ts" >&2
  exit 1
fi
revision="$(echo "$installed" | cut -d. -f2)"
if [ "$revision" -lt "$floor" ]; then
  echo "--- three.js ${installed} is older than r${floor}, the three/webgpu and three/tsl react-three-md2/webgpu needs:"
  echo "    left out: the WebGPU unit and browser tests (skipped, each run lists them at its end)"
fi
echo "--- three.js ${installed}: npm test"
npm test </dev/null
echo "--- three.js ${installed}: the browser tests (vitest --project browser)"
npx vitest run --project browser </dev/null
