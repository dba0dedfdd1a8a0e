/**
 * An example as a clean clone meets it (scripts/check-arena.mjs, scripts/check-vanilla.mjs): builds the
 * library and packs it into the example's vendor/react-three-md2.tgz (its dependency, `file:vendor/…`),
 * installs the example from its lockfile (`npm ci`), checks that the installed library is the one just
 * built, builds the example (which copies its models from assets/) and runs its test in headless
 * Chromium (ending `N passed, M failed`). Needs the npm registry for the example's own packages.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '../..')

/** Checks `examples/<name>`; `files` are paths in dist/ the installed library must hold byte for byte as built. Exits 1 on failure. */
export function checkExample(name, files) {
  const example = join(root, 'examples', name)
  const started = Date.now()
  const seconds = () => ((Date.now() - started) / 1000).toFixed(0)
  const run = (command, args) => {
    console.log(`$ (examples/${name}) ${command} ${args.join(' ')}`)
    execFileSync(command, args, { cwd: example, stdio: ['ignore', 'inherit', 'inherit'] })
  }
  try {
    run('npm', ['run', 'library'])
    run('npm', ['ci', '--no-audit', '--no-fund'])
    // npm takes a `file:` tarball from its cache when the lockfile pins its checksum: make sure the
    // library installed is the one just built (see examples/scripts/unpin-tarball.mjs).
    for (const file of files) {
      const built = readFileSync(join(root, file))
      const installed = readFileSync(join(example, 'node_modules/react-three-md2', file))
      if (!built.equals(installed)) throw new Error(`examples/${name} installed a react-three-md2 whose ${file} is not the one just built`)
    }
    run('npm', ['run', 'build'])
    run('npm', ['test'])
  } catch (error) {
    console.error(`check-${name} failed after ${seconds()} s: ${error instanceof Error ? error.message : error}`)
    process.exit(1)
  }
  console.log(`examples/${name} checked in ${seconds()} s`)
}
