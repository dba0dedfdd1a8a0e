#!/usr/bin/env node
/**
 * Builds react-three-md2 (the repository the examples sit in) and packs it as vendor/react-three-md2.tgz
 * of the example it is run from, the file the example's package.json installs it from: run before
 * `npm ci` (`npm run library` in examples/arena or examples/vanilla). Packed with --ignore-scripts: the
 * package's prepack would build a second time.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '../..')
// npm runs a package's scripts in its folder: the example's.
const example = process.cwd()
const vendor = join(example, 'vendor')
const run = (args) => {
  console.log(`$ (repository root) npm ${args.join(' ')}`)
  return execFileSync('npm', args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' })
}

if (!existsSync(join(example, 'package.json')) || example === root) {
  throw new Error(`run this from an example's folder (npm run library there), not ${example}`)
}
if (!existsSync(join(root, 'node_modules'))) process.stdout.write(run(['ci', '--no-audit', '--no-fund']))
process.stdout.write(run(['run', 'build']))
const packs = mkdtempSync(join(tmpdir(), 'md2-example-pack-'))
try {
  const [packed] = JSON.parse(run(['pack', '--ignore-scripts', '--json', '--pack-destination', packs]))
  mkdirSync(vendor, { recursive: true })
  renameSync(join(packs, packed.filename), join(vendor, 'react-three-md2.tgz'))
  console.log(`packed ${packed.name}@${packed.version} (${packed.entryCount} files) as ${basename(example)}/vendor/react-three-md2.tgz`)
} finally {
  rmSync(packs, { recursive: true, force: true })
}
