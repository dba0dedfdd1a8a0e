#!/usr/bin/env node
/**
 * examples/vanilla (three.js without React) as a clean clone meets it: packs the library into the
 * example, installs it from its lockfile (which holds no React), checks the installed library is the
 * one just built, builds the example and runs it in headless Chromium (examples/vanilla/test/vanilla.test.mjs,
 * which also fails on React in the bundle; ending `N passed, M failed`). How:
 * examples/scripts/check-example.mjs. Needs the npm registry for the example's own packages.
 *
 *   node scripts/check-vanilla.mjs
 */
import { checkExample } from '../examples/scripts/check-example.mjs'

checkExample('vanilla', ['dist/three/index.js', 'dist/three/crowd/MD2Crowd.js', 'dist/core/index.js'])
