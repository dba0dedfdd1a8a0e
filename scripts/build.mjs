#!/usr/bin/env node
/**
 * The published build (`npm run build`): `tsc -p tsconfig.build.json` writes one ES module per source
 * file into dist/, with its declaration and source maps beside it, so an app's bundler keeps only the
 * modules it imports. The old output is removed first: a file deleted from src/ must not ship.
 */
import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
rmSync(join(root, 'dist'), { recursive: true, force: true })
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
  cwd: root,
  stdio: 'inherit',
})
