/**
 * The package as a user installs it, without the network: `npm pack` of this repository, unpacked into
 * a consumer project's node_modules, with the peers (and any other package the consumer needs) linked
 * from this repository's node_modules, so the consumer sees the versions the library is tested with.
 * Shared by scripts/check-package.mjs and scripts/check-samples.mjs.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, symlinkSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

export const root = resolve(import.meta.dirname, '..')

/** The package's dependencies and peers, as a consumer's node_modules holds them. */
export const PACKAGE_DEPENDENCIES = [
  'react',
  'react-dom',
  'three',
  '@types/react',
  '@types/react-dom',
  '@types/three',
  '@react-three/fiber',
  'fflate',
  'fast-png',
  'meshoptimizer',
]

/**
 * Packs the library into `work` and returns the tarball's path. `build: false` packs `dist/` as it is
 * (npm's prepack, the build, is skipped): for a caller that has just built it.
 */
export function packLibrary(work, { build = true } = {}) {
  const args = ['pack', '--pack-destination', work, '--silent', ...(build ? [] : ['--ignore-scripts'])]
  console.log(`$ npm ${args.join(' ')}`)
  execFileSync('npm', args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
  const name = readdirSync(work).find((file) => file.endsWith('.tgz'))
  if (!name) throw new Error(`npm pack left no tarball in ${work}`)
  return join(work, name)
}

/** Unpacks `tarball` as `app/node_modules/react-three-md2` and links `packages` from this repository's node_modules. */
export function installPacked(app, tarball, packages = PACKAGE_DEPENDENCIES) {
  const modules = join(app, 'node_modules')
  mkdirSync(join(modules, 'react-three-md2'), { recursive: true })
  execFileSync('tar', ['-xzf', tarball, '-C', join(modules, 'react-three-md2'), '--strip-components=1'])
  for (const name of packages) {
    mkdirSync(dirname(join(modules, name)), { recursive: true })
    symlinkSync(join(root, 'node_modules', name), join(modules, name), 'dir')
  }
}
