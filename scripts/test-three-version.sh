#!/usr/bin/env bash
# Runs the unit and browser tests against another three.js release (the oldest the package claims, in CI):
# installs it without saving over the locked one, clears the bundlers' caches of the old one, runs both
# suites. Meant for a fresh clone (CI): it leaves that three.js installed; `npm ci` restores the locked one.
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
echo "--- three.js ${installed}: npm test"
npm test </dev/null
echo "--- three.js ${installed}: npm run test:browser"
npm run test:browser </dev/null
