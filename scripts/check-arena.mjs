#!/usr/bin/env node
/**
 * examples/arena as a clean clone meets it: packs the library into the example, installs it from its
 * lockfile, checks the installed library is the one just built, builds the example and plays it in
 * headless Chromium (examples/arena/test/arena.test.mjs, ending `N passed, M failed`). How:
 * examples/scripts/check-example.mjs. Needs the npm registry for the example's own packages.
 *
 *   node scripts/check-arena.mjs
 */
import { checkExample } from '../examples/scripts/check-example.mjs'

checkExample('arena', ['dist/index.js', 'dist/core/index.js', 'dist/react/MD2Model.js'])
