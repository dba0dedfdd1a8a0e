#!/usr/bin/env node
/**
 * What each entry and feature adds to an app, as a user's bundler builds it: packs the library (run
 * `npm run build` first), installs the tarball into a scratch app beside this repository's peers, and
 * bundles one small entry per case with Vite (minified, tree-shaken; three, React, React DOM and R3F
 * left out, as every app already has them). Prints the gzipped size of each and fails when one passes
 * its budget or contains a module it must not (the archive reader in `<MD2Model>`, WebGPU code in a
 * WebGL app…). drei's glTF path is measured the same way, for comparison.
 *
 *   node scripts/check-size.mjs [--json file] [--only name,name] [--keep]
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { build } from 'vite'

const root = resolve(import.meta.dirname, '..')
const args = process.argv.slice(2)
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined)
const only = option('--only')?.split(',')
const jsonOut = option('--json')

/** Peers every app has: never counted. */
const PEERS = [/^react($|\/)/, /^react-dom($|\/)/, /^three($|\/)/, /^@react-three\/fiber($|\/)/]
/** What a WebGL-only app must never carry. */
const WEBGPU = [/three[/\\]webgpu/, /three[/\\]tsl/, /[/\\]three[/\\]webgpu[/\\]/]
const ARCHIVES = [/[/\\]fflate[/\\]/, /[/\\]archive[/\\]openArchive\.js$/, /MD2ArchiveLoader\.js$/]

const CASES = [
  {
    name: 'model',
    label: '`<MD2Model url animation>`',
    budget: 20,
    code: `import { MD2Model } from 'react-three-md2'
export const App = () => <MD2Model url="/players/ogro/tris.md2" animation="run" />`,
    forbid: [...ARCHIVES, ...WEBGPU, /[/\\]crowd[/\\]/, /[/\\]gltf[/\\]/, /[/\\]cli[/\\]/, /shellKernel|blobShadow|MD2Shell/i],
  },
  {
    name: 'instances',
    label: '`<MD2Instances>` with two `<MD2Instance>`',
    budget: 28,
    code: `import { MD2Instances, MD2Instance } from 'react-three-md2'
export const App = () => (
  <MD2Instances url="/players/ogro/tris.md2">
    <MD2Instance position={[0, 0, 0]} animation="run" />
    <MD2Instance position={[60, 0, 0]} animation="stand" />
  </MD2Instances>
)`,
    forbid: [...ARCHIVES, ...WEBGPU, /[/\\]gltf[/\\]/, /[/\\]cli[/\\]/],
  },
  {
    name: 'core',
    label: '`parseMD2` + `decodeFrame` (`/core`)',
    budget: 6,
    code: `import { parseMD2, decodeFrame } from 'react-three-md2/core'
export const positions = (bytes) => decodeFrame(parseMD2(bytes), 0)`,
    forbid: [...ARCHIVES, /[/\\]react[/\\]/, /[/\\]three[/\\]/],
  },
  {
    name: 'webgpu',
    label: "`react-three-md2/webgpu` (three.js's WebGPU side for crowds and the view weapon)",
    budget: 6,
    code: `import 'react-three-md2/webgpu'`,
    forbid: [...ARCHIVES, /[/\\]react[/\\]/, /jsx-runtime/],
  },
  {
    name: 'three',
    label: 'an animated model without React (`/three`)',
    budget: 16,
    code: `import { MD2Loader, createMD2Geometry, writeMD2Pose, MD2AnimationController } from 'react-three-md2/three'
export async function load(url) {
  const model = await new MD2Loader().loadAsync(url)
  const geometry = createMD2Geometry(model)
  const controller = new MD2AnimationController(model)
  return (seconds) => { controller.update(seconds); writeMD2Pose(geometry, controller.pose) }
}`,
    forbid: [...ARCHIVES, ...WEBGPU, /[/\\]react[/\\]/, /jsx-runtime/],
  },
]

/** drei's glTF path, bundled the same way (not budgeted: the comparison the README gives). */
const REFERENCE = {
  name: 'drei-gltf',
  label: "drei's `useGLTF` + `useAnimations` (a glTF character)",
  code: `import { useGLTF, useAnimations } from '@react-three/drei'
export function Character() {
  const { scene, animations } = useGLTF('/character.glb')
  const { ref } = useAnimations(animations)
  return <primitive ref={ref} object={scene} />
}`,
}

const work = mkdtempSync(join(tmpdir(), 'md2-size-'))
try {
  execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', work, '--silent'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const tarball = join(
    work,
    readdirSync(work).find((name) => name.endsWith('.tgz')),
  )
  const app = join(work, 'app')
  const modules = join(app, 'node_modules')
  mkdirSync(join(modules, 'react-three-md2'), { recursive: true })
  execFileSync('tar', ['-xzf', tarball, '-C', join(modules, 'react-three-md2'), '--strip-components=1'])
  for (const name of ['react', 'react-dom', 'three', '@react-three/fiber', '@react-three/drei', 'fflate', 'fast-png']) {
    mkdirSync(dirname(join(modules, name)), { recursive: true })
    symlinkSync(join(root, 'node_modules', name), join(modules, name), 'dir')
  }
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'size-app', private: true, type: 'module' }))

  const results = []
  for (const entry of [...CASES, REFERENCE]) {
    if (only && !only.includes(entry.name)) continue
    const file = join(app, `${entry.name}.jsx`)
    writeFileSync(file, entry.code)
    const output = await build({
      root: app,
      configFile: false,
      logLevel: 'silent',
      esbuild: { jsx: 'automatic' },
      oxc: { jsx: { runtime: 'automatic' } },
      build: {
        write: false,
        // Minified as an app's build is (a library build keeps its whitespace), the case's exports kept.
        minify: true,
        target: 'es2022',
        modulePreload: false,
        rollupOptions: { input: file, preserveEntrySignatures: 'strict', external: (id) => PEERS.some((peer) => peer.test(id)) },
      },
    })
    const chunks = (Array.isArray(output) ? output : [output]).flatMap((o) => o.output).filter((c) => c.type === 'chunk')
    const bytes = chunks.reduce((sum, chunk) => sum + gzipSync(chunk.code, { level: 9 }).length, 0)
    const modulesIn = chunks.flatMap((chunk) => Object.keys(chunk.modules).filter((id) => chunk.modules[id].renderedLength > 0))
    const imports = chunks.flatMap((chunk) => [...chunk.imports, ...chunk.dynamicImports])
    const found = (entry.forbid ?? []).flatMap((pattern) =>
      [...modulesIn, ...imports].filter((id) => pattern.test(id)).map((id) => id.replace(/.*node_modules[/\\]/, '')),
    )
    const kb = bytes / 1024
    const problems = []
    if (entry.budget !== undefined && kb > entry.budget) problems.push(`${kb.toFixed(1)} kB is over its budget of ${entry.budget} kB`)
    if (found.length > 0) problems.push(`contains what it must not: ${[...new Set(found)].join(', ')}`)
    if (args.includes('--modules'))
      for (const chunk of chunks)
        for (const [id, info] of Object.entries(chunk.modules).sort((a, b) => b[1].renderedLength - a[1].renderedLength))
          if (info.renderedLength > 0)
            console.log(`    ${String(info.renderedLength).padStart(7)} ${id.replace(/.*node_modules[/\\]/, '')}`)
    results.push({
      name: entry.name,
      label: entry.label,
      kb: Number(kb.toFixed(1)),
      budget: entry.budget ?? null,
      modules: modulesIn.length,
      problems,
    })
    console.log(
      `${problems.length ? '✗' : '✓'} ${entry.label}: ${kb.toFixed(1)} kB gzip${entry.budget !== undefined ? ` (budget ${entry.budget} kB)` : ''}, ${modulesIn.length} modules` +
        (problems.length ? `\n    ${problems.join('\n    ')}` : ''),
    )
  }
  if (jsonOut) writeFileSync(resolve(jsonOut), `${JSON.stringify(results, null, 2)}\n`)
  const failed = results.filter((r) => r.problems.length > 0).length
  console.log(`Size budgets: ${results.length - failed} passed, ${failed} failed`)
  process.exitCode = failed > 0 ? 1 : 0
} finally {
  if (args.includes('--keep')) console.log(`kept ${work}`)
  else rmSync(work, { recursive: true, force: true })
}
