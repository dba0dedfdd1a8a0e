#!/usr/bin/env node
/**
 * The published build (`npm run build`): `tsc -p tsconfig.build.json` writes one ES module per source
 * file into dist/, with its declaration and source maps beside it, so an app's bundler keeps only the
 * modules it imports. The old output is removed first: a file deleted from src/ must not ship.
 * Then the sample models `react-three-md2 samples` writes are copied from assets/ to dist/samples/NAME/, the
 * files its list (src/cli/samples.ts) names and no other: the repository keeps one copy of each.
 */
import { execFileSync } from 'node:child_process'
import { cpSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const root = resolve(import.meta.dirname, '..')
rmSync(join(root, 'dist'), { recursive: true, force: true })
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
  cwd: root,
  stdio: 'inherit',
})
const { SAMPLES } = await import(pathToFileURL(join(root, 'dist/cli/samples.js')).href)
for (const sample of SAMPLES)
  for (const file of sample.files) cpSync(join(root, 'assets', sample.from, file), join(root, 'dist/samples', sample.name, file))
