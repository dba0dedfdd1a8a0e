#!/usr/bin/env node
/**
 * examples/arena as a clean clone meets it: builds the library and packs it into
 * examples/arena/vendor/react-three-md2.tgz (the example's dependency, `file:vendor/…`), installs the
 * example from its lockfile (`npm ci`), checks that the installed library is the one just built, builds
 * the example (which copies its models from assets/) and plays it in headless Chromium
 * (examples/arena/test/arena.test.mjs, ending `N passed, M failed`). Needs the npm registry for the
 * example's own packages.
 *
 *   node scripts/check-arena.mjs
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const arena = join(root, 'examples/arena')
const started = Date.now()

const run = (command, args) => {
  console.log(`$ (examples/arena) ${command} ${args.join(' ')}`)
  execFileSync(command, args, { cwd: arena, stdio: ['ignore', 'inherit', 'inherit'] })
}

try {
  run('npm', ['run', 'library'])
  run('npm', ['ci', '--no-audit', '--no-fund'])
  // npm takes a `file:` tarball from its cache when the lockfile pins its checksum: make sure the
  // library installed is the one just built (see examples/arena/scripts/unpin-tarball.mjs).
  for (const file of ['dist/index.js', 'dist/core/index.js', 'dist/react/MD2Model.js']) {
    const built = readFileSync(join(root, file))
    const installed = readFileSync(join(arena, 'node_modules/react-three-md2', file))
    if (!built.equals(installed)) throw new Error(`examples/arena installed a react-three-md2 whose ${file} is not the one just built`)
  }
  run('npm', ['run', 'build'])
  run('npm', ['test'])
} catch (error) {
  console.error(
    `check-arena failed after ${((Date.now() - started) / 1000).toFixed(0)} s: ${error instanceof Error ? error.message : error}`,
  )
  process.exit(1)
}
console.log(`examples/arena checked in ${((Date.now() - started) / 1000).toFixed(0)} s`)
