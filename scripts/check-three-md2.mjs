#!/usr/bin/env node
/**
 * examples/three-md2 (pages of our own using MD2Character and MD2CharacterComplex as three.js's
 * webgl_loader_md2 and webgl_loader_md2_control pages use three's) as a clean clone meets it: packs the
 * library into the example, installs it from its lockfile, checks the installed library is the one just built, builds the pages twice (with the library's MD2Character and
 * MD2CharacterComplex, and with three's own under the same import) and runs the same checks on both in
 * headless Chromium (examples/three-md2/test/three-md2.test.mjs). How: examples/scripts/check-example.mjs.
 *
 *   node scripts/check-three-md2.mjs
 */
import { checkExample } from '../examples/scripts/check-example.mjs'

checkExample('three-md2', ['dist/three/index.js', 'dist/three/character/MD2Character.js', 'dist/three/character/MD2CharacterComplex.js'])
