/**
 * A newcomer's app, as the README's checks make it: this library packed, a fresh Vite React + TypeScript
 * app from `create-vite` (the registry's), and `npm install` run as a user runs it (peer dependencies strict,
 * ERESOLVE a failure). Shared by `check-quickstart.mjs` and `check-game.mjs`.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

export const root = resolve(import.meta.dirname, '..')

export const run = (command, commandArgs, cwd) => {
  console.log(`$ ${command} ${commandArgs.join(' ')}`)
  execFileSync(command, commandArgs, { cwd, stdio: ['ignore', 'inherit', 'inherit'] })
}

/**
 * `npm install` as a user runs it: peer dependencies strict (`legacy-peer-deps` off whatever the npm config
 * says), failing on ERESOLVE, be it an error or a warning that npm overrode a peer dependency.
 */
export const npmInstall = (words, cwd) => {
  const commandArgs = ['install', '--no-audit', '--no-fund', ...words]
  console.log(`$ npm ${commandArgs.join(' ')}`)
  const result = spawnSync('npm', commandArgs, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_legacy_peer_deps: 'false' },
  })
  process.stdout.write(result.stdout)
  process.stderr.write(result.stderr)
  if (/ERESOLVE/.test(result.stdout + result.stderr)) throw new Error(`npm ${commandArgs.join(' ')}: npm reported ERESOLVE (see above)`)
  if (result.status !== 0) throw new Error(`npm ${commandArgs.join(' ')} exited with ${result.status ?? result.signal}`)
}

/** The README's section `title` (from its `## ` heading to the next). */
export function readmeSection(title) {
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  return readme.slice(readme.indexOf(`## ${title}`)).split(/\n## /)[0]
}

/** The fenced `lang` blocks of `text`. */
export const codeBlocks = (text, lang) => [...text.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1])

/** Packs the library into `work` and creates a fresh Vite React + TypeScript app there, installed: `{ appDir, tarball }`. */
export function freshViteApp(work) {
  run('npm', ['pack', '--pack-destination', work], root)
  const tarball = join(work, `react-three-md2-${JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version}.tgz`)
  run('npx', ['-y', 'create-vite@latest', 'app', '--template', 'react-ts', '--no-interactive'], work)
  const appDir = join(work, 'app')
  npmInstall([], appDir)
  return { appDir, tarball }
}

/**
 * The README's Quick start line that writes the sample models (`npx react-three-md2 samples public/players`),
 * as its words after `npx`; read before any work, so a README without it fails at once.
 */
export function samplesCommand() {
  const line = codeBlocks(readmeSection('Quick start'), 'sh')
    .flatMap((block) => block.split('\n'))
    .map((text) => text.replace(/#.*$/, '').trim())
    .find((text) => text.startsWith('npx react-three-md2 samples'))
  if (!line) throw new Error("README: the Quick start's sh block has no `npx react-three-md2 samples DIR` line to write the models with")
  return line.split(/\s+/).slice(1)
}

/**
 * Runs `samplesCommand()` in `appDir` as a user does, after the tarball is installed: the models come from the
 * package, not from this repository. `npx --no` runs the installed package's command and never fetches one.
 */
export const writeSamples = (appDir, words) => run('npx', ['--no', ...words], appDir)

/** The version of `name` installed in `appDir`. */
export const installedVersion = (appDir, name) =>
  JSON.parse(readFileSync(join(appDir, 'node_modules', name, 'package.json'), 'utf8')).version
