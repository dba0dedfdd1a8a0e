#!/usr/bin/env node
/**
 * What each entry and feature adds to an app, measured as a user's app ships it: packs the library (run
 * `npm run build` first), installs the tarball into a scratch app beside this repository's packages,
 * builds a baseline app (a React Three Fiber `<Canvas>` with a box) and, for each case, the same app using
 * one more thing, with Vite's default app build (minified, tree-shaken, React, three and R3F included), and
 * gives the difference in gzipped JavaScript: what the app loads up front (its entry chunk), and apart from
 * it the chunks a feature loads only when used (the TGA decoder, the first time a TGA skin is met). Fails
 * when a case passes its budget or bundles a module it must not (the archive reader in `<MD2Model>`, WebGPU
 * code in a WebGL app…). drei's glTF path is measured the same way, for comparison.
 *
 * Sizes are in decimal kB (1 kB = 1,000 bytes, as issue 44 and most bundle tools measure), budgets too: a case
 * fails when its bytes pass its budget × 1,000 (the figures printed are rounded to 0.1 kB; the bytes are exact).
 *
 *   node scripts/check-size.mjs [--json file] [--only name,name] [--modules] [--keep]
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import react from '@vitejs/plugin-react'
import { build } from 'vite'

const root = resolve(import.meta.dirname, '..')
const args = process.argv.slice(2)
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined)
const only = option('--only')?.split(',')
const jsonOut = option('--json')

/** What a WebGL-only app must never carry. */
const WEBGPU = [
  /[/\\]three[/\\]build[/\\]three\.webgpu/,
  /[/\\]three[/\\]build[/\\]three\.tsl/,
  /react-three-md2[/\\]dist[/\\]three[/\\]webgpu[/\\]/,
]
const ARCHIVES = [/[/\\]fflate[/\\]/, /[/\\]archive[/\\]openArchive\.js$/, /MD2ArchiveLoader\.js$/]
/** meshoptimizer's simplifier: only bakeMD2's `simplify` (after `loadSimplifier()`) may bring it. */
const SIMPLIFIER = [/[/\\]meshoptimizer[/\\]/]
const LIBRARY = (path) => new RegExp(`react-three-md2[/\\\\]dist[/\\\\]${path}`)
/** Physics: only an app importing `react-three-md2/rapier` brings our colliders, and rapier with them. */
const RAPIER = [/[/\\]@react-three[/\\]rapier[/\\]/, /[/\\]@dimforge[/\\]/, LIBRARY('react[/\\\\]rapier')]

/** The app every case is measured against: what an R3F app has before it uses the library. */
const app = (imports, element, before = '') => `import { createRoot } from 'react-dom/client'
import { Canvas } from '@react-three/fiber'
${imports}
${before}
createRoot(document.getElementById('root')).render(
  <Canvas>
    <mesh>
      <boxGeometry />
      <meshStandardMaterial />
    </mesh>
    ${element}
  </Canvas>,
)
`
const BASELINE = app('', '')

const CASES = [
  {
    name: 'model',
    label: '`<MD2Model url animation>`',
    // 20 KiB before the kB were decimal (a rounded 20.0 passed: up to 20,531 bytes), then 20,500 bytes; 0.3 kB
    // more since the per-frame view test builds its own planes (src/three/mesh/frustum.ts), allocating nothing
    // whatever V8 inlines; 0.9 kB more for issue 50 and 51: `height`/`origin` on every character (its standing
    // bounds), the animation table's checks of careless calls, the end event's name; 21.8 kB, drei's glTF path 21.3.
    // What is above drei's (issue 58, measured): Vite's preload helper (0.6 kB), which every `import()` brings (here
    // the TGA decoder's), and `MD2Loader.setAnimationTable`'s checks of a table given in code (0.4 kB; loading them
    // with an `extendLoader`'s loader instead made rolldown split three.js into a chunk of its own in a crowd app, 3 kB
    // more there; writing a new geometry's first frame by `writeMD2Pose` saved 0.15 kB here but brought the CPU blend
    // into every crowd app, 1.5 kB). `parseMD2`'s checks of its options stay out: the loader reads through
    // `readMD2`, its table already checked. Not looser.
    budget: 21.8,
    code: app(`import { MD2Model } from 'react-three-md2'`, `<MD2Model url="/players/ogro/tris.md2" animation="run" />`),
    forbid: [
      ...ARCHIVES,
      ...WEBGPU,
      ...RAPIER,
      LIBRARY('three[/\\\\]crowd'),
      LIBRARY('core[/\\\\]gltf'),
      LIBRARY('cli'),
      LIBRARY('react[/\\\\]looks'),
      LIBRARY('core[/\\\\]animation[/\\\\](blendPoseInto|blendVerticesLit|blendVerticesBounded|poseBounds)'),
      LIBRARY('core[/\\\\]tags'),
      // three.js's character classes and morph geometry are modules of their own.
      LIBRARY('three[/\\\\]character'),
      LIBRARY('three[/\\\\]mesh[/\\\\]createMD2MorphGeometry'),
      LIBRARY('core[/\\\\]format[/\\\\]threeAnimationGroups'),
    ],
  },
  {
    name: 'looks',
    label: '… with `<MD2Quake2Lighting>`, `<MD2Shell>`, `<MD2BlobShadow>`, `<MD2PoseBounds>`',
    code: app(
      `import { MD2BlobShadow, MD2Model, MD2PoseBounds, MD2Quake2Lighting, MD2Shell } from 'react-three-md2'`,
      `<MD2Model url="/players/ogro/tris.md2" animation="run"><MD2Quake2Lighting /><MD2Shell color="blue" /><MD2BlobShadow /><MD2PoseBounds /></MD2Model>`,
    ),
    forbid: [...ARCHIVES, ...WEBGPU],
  },
  {
    name: 'instances',
    label: '`<MD2Instances>` with two `<MD2Instance>`',
    // Issue 44's budget, and 0.9 kB for issues 49 and 50: `height`/`origin` (one standing matrix in every
    // instance's), Quake II light read from the stored rows, `limit={0}`. The looks (`CrowdLooks`, the posed
    // rows), following and the queries come with what uses them; the queries' chunk reads the row layout from
    // gpu/rowLayout.ts, not instanceRows.ts (importing that one from the chunk brought 4 kB up front). 0.8 kB more
    // for issue 49: the posed rows in every crowd (a crowd drawn by a software renderer is posed on the CPU, `pose:
    // "auto"`; loaded on demand instead, rollup split three into a chunk of its own, 3.5 kB more up front), the
    // renderer's name read, the decode posing any row at any time and the hook a tagged follower's decode fills (the
    // tag's GLSL comes with following). 2.7 kB more for the atlas of poses a crowd posed by the CPU for WebGLRenderer
    // reads (a software renderer's: the CPU blend, the atlas and its GLSL). Loaded on demand it was 0.35 kB here, but
    // the bundler then moved three.js and the library into a chunk of their own in an app with the looks (4.3 kB more
    // there, against 1.6 kB in every crowd). 0.2 kB more for issue 58: what an `<MD2Instance>` tells an `<MD2Collider>`
    // inside it (the crowd's model, the instance's pose, the crowd's height and origin, in a context of its own).
    budget: 32.6,
    code: app(
      `import { MD2Instances, MD2Instance } from 'react-three-md2'`,
      `<MD2Instances url="/players/ogro/tris.md2">
      <MD2Instance position={[0, 0, 0]} animation="run" />
      <MD2Instance position={[60, 0, 0]} animation="stand" />
    </MD2Instances>`,
    ),
    forbid: [
      ...ARCHIVES,
      ...WEBGPU,
      LIBRARY('core[/\\\\]gltf'),
      LIBRARY('cli'),
      LIBRARY('react[/\\\\]looks'),
      // What a plain crowd leaves to what uses it: the looks (`MD2Crowd`, a look's import), following (its chunk) and
      // the queries (their chunk, at the first raycast). The posed rows are every crowd's (a software renderer's).
      LIBRARY('three[/\\\\]crowd[/\\\\](MD2Crowd|CrowdLooks|CrowdLayer)\\.js$'),
      LIBRARY('three[/\\\\]materials[/\\\\](shellMaterial|shadowMaterial)'),
    ],
    // In chunks of their own, loaded when first used, never up front. (The CPU blend is up front: the atlas of poses
    // blends with it.)
    deferred: [LIBRARY('three[/\\\\]crowd[/\\\\](CrowdLink|followCrowd|CrowdQueries)\\.js$')],
  },
  {
    name: 'instances-looks',
    label: '… with `<MD2Quake2Lighting>` on every instance and an `<MD2Shell>` on one',
    // The looks' code, and how a crowd wears them (looks/crowdLooks.tsx), come with the looks' import.
    code: app(
      `import { MD2Instances, MD2Instance, MD2Quake2Lighting, MD2Shell } from 'react-three-md2'`,
      `<MD2Instances url="/players/ogro/tris.md2">
      <MD2Quake2Lighting />
      <MD2Instance position={[0, 0, 0]} animation="run"><MD2Shell color="blue" /></MD2Instance>
      <MD2Instance position={[60, 0, 0]} animation="stand" />
    </MD2Instances>`,
    ),
    forbid: [...ARCHIVES, ...WEBGPU],
  },
  {
    name: 'webgpu',
    label: '… and `react-three-md2/webgpu` (on WebGPURenderer)',
    // The entry's own code: what a WebGPU app adds to the crowd case (three's WebGPU renderer aside). It took the
    // posed rows out of every crowd's bundle and added the culling pass: a WebGPU crowd app as a whole (this case
    // plus `instances`) stayed within 34 kB, where it was 35.2; 35.2 again with the crowd's 0.9 kB above. A follower
    // placed on its tag in TSL (0.4 kB) came in as the posed rows moved to every crowd (0.3 kB out); the whole app
    // grows by the crowd's 0.8 kB, then its 2.7 kB for the atlas of poses, then the crowd's 0.2 kB for colliders.
    base: 'instances',
    budget: 6.5,
    total: 38.8,
    code: app(
      `import { MD2Instances, MD2Instance } from 'react-three-md2'\nimport 'react-three-md2/webgpu'`,
      `<MD2Instances url="/players/ogro/tris.md2">
      <MD2Instance position={[0, 0, 0]} animation="run" />
      <MD2Instance position={[60, 0, 0]} animation="stand" />
    </MD2Instances>`,
    ),
    // three's own WebGPU code is the renderer the app chose: counted in neither case.
    external: [/^three\/(webgpu|tsl)$/],
    forbid: [...ARCHIVES],
  },
  {
    name: 'physics',
    label: '… in `<Physics>` beside a `<CuboidCollider>` (rapier itself, its WebAssembly inlined; for comparison)',
    base: 'model',
    code: app(
      `import { MD2Model } from 'react-three-md2'\nimport { CuboidCollider, Physics } from '@react-three/rapier'`,
      `<Physics><CuboidCollider args={[10, 1, 10]} /><MD2Model url="/players/ogro/tris.md2" animation="run" /></Physics>`,
    ),
    forbid: [...ARCHIVES, ...WEBGPU, LIBRARY('react[/\\\\]rapier')],
  },
  {
    name: 'rapier',
    label: '… and `<MD2Collider>` in it (`react-three-md2/rapier`)',
    // What the entry adds to an app that has rapier already: the collider, its fit and the pose's box (1,476
    // bytes when it came).
    base: 'physics',
    budget: 1.6,
    code: app(
      `import { MD2Model } from 'react-three-md2'\nimport { MD2Collider } from 'react-three-md2/rapier'\nimport { CuboidCollider, Physics } from '@react-three/rapier'`,
      `<Physics><CuboidCollider args={[10, 1, 10]} /><MD2Model url="/players/ogro/tris.md2" animation="run"><MD2Collider /></MD2Model></Physics>`,
    ),
    forbid: [...ARCHIVES, ...WEBGPU],
  },
  {
    name: 'core',
    label: '`parseMD2` + `decodeFrame` (`/core`)',
    budget: 6.1,
    code: app(
      `import { parseMD2, decodeFrame } from 'react-three-md2/core'`,
      `{String(positions)}`,
      `const positions = decodeFrame(parseMD2(new Uint8Array(window.md2Bytes)), 0).length`,
    ),
    forbid: [...ARCHIVES, LIBRARY('react'), LIBRARY('three')],
  },
  {
    name: 'three',
    label: 'an animated model without React (`/three`)',
    budget: 14.3,
    code: app(
      `import { MD2Loader, createMD2Geometry, writeMD2Pose, MD2AnimationController } from 'react-three-md2/three'`,
      '',
      `new MD2Loader().loadAsync('/players/ogro/tris.md2').then((model) => {
  const geometry = createMD2Geometry(model)
  const controller = new MD2AnimationController(model)
  setInterval(() => { controller.update(1 / 60); writeMD2Pose(geometry, controller.pose) }, 16)
})`,
    ),
    forbid: [...ARCHIVES, ...WEBGPU, LIBRARY('react')],
  },
  {
    name: 'character',
    label: "three.js's `MD2Character` code on the library (`/three`)",
    budget: 18.4,
    code: app(
      `import { MD2Character } from 'react-three-md2/three'`,
      '',
      `const character = new MD2Character()
character.onLoadComplete = () => character.setAnimation('run')
character.loadParts({ baseUrl: '/players/ogro/', body: 'tris.md2', skins: ['igdosh.png'], weapons: [['weapon.md2', 'weapon.png']] })
setInterval(() => character.update(1 / 60), 16)`,
    ),
    forbid: [...ARCHIVES, ...WEBGPU, LIBRARY('react'), LIBRARY('three[/\\\\]crowd')],
  },
  {
    name: 'three-character',
    label: "… and three.js's own `MD2Character` (for comparison)",
    code: app(
      `import { MD2Character } from 'three/addons/misc/MD2Character.js'`,
      '',
      `const character = new MD2Character()
character.onLoadComplete = () => character.setAnimation('run')
character.loadParts({ baseUrl: '/players/ogro/', body: 'tris.md2', skins: ['igdosh.png'], weapons: [['weapon.md2', 'weapon.png']] })
setInterval(() => character.update(1 / 60), 16)`,
    ),
  },
]

/** drei's glTF path, measured the same way (not budgeted: the comparison the README gives). */
const REFERENCE = {
  name: 'drei-gltf',
  label: "drei's `useGLTF` + `useAnimations` (a glTF character)",
  code: app(
    `import { useGLTF, useAnimations } from '@react-three/drei'`,
    `<Character />`,
    `function Character() {
  const { scene, animations } = useGLTF('/character.glb')
  const { ref } = useAnimations(animations)
  return <primitive ref={ref} object={scene} />
}`,
  ),
}

const gz = (chunk) => gzipSync(chunk.code, { level: 9 }).length

/** Builds one app; returns its entry's gzipped bytes, its other chunks', and every module it bundled. */
async function measure(dir, code, external = []) {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'main.jsx'), code)
  writeFileSync(join(dir, 'index.html'), '<div id="root"></div><script type="module" src="./main.jsx"></script>')
  const output = await build({
    root: dir,
    configFile: false,
    logLevel: 'silent',
    plugins: [react()],
    build: { write: false, rollupOptions: { external: (id) => external.some((pattern) => pattern.test(id)) } },
  })
  const chunks = (Array.isArray(output) ? output : [output]).flatMap((o) => o.output).filter((c) => c.type === 'chunk')
  // Up front: the entry chunk and what it imports statically; the rest loads when a feature is used.
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]))
  const upFront = new Set()
  const visit = (chunk) => {
    if (!chunk || upFront.has(chunk)) return
    upFront.add(chunk)
    for (const name of chunk.imports) visit(byName.get(name))
  }
  for (const chunk of chunks) if (chunk.isEntry) visit(chunk)
  return {
    upFront: [...upFront].reduce((sum, chunk) => sum + gz(chunk), 0),
    onDemand: chunks.filter((chunk) => !upFront.has(chunk)).map((chunk) => ({ name: chunk.name, bytes: gz(chunk) })),
    modules: chunks.flatMap((chunk) => Object.entries(chunk.modules).filter(([, info]) => info.renderedLength > 0)),
    upFrontModules: [...upFront].flatMap((chunk) =>
      Object.entries(chunk.modules)
        .filter(([, info]) => info.renderedLength > 0)
        .map(([id]) => id),
    ),
  }
}

/** Decimal kB, to 0.1. */
const kB = (bytes) => Number((bytes / 1000).toFixed(1))
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
  const modules = join(work, 'node_modules')
  mkdirSync(join(modules, 'react-three-md2'), { recursive: true })
  execFileSync('tar', ['-xzf', tarball, '-C', join(modules, 'react-three-md2'), '--strip-components=1'])
  for (const name of [
    'react',
    'react-dom',
    'scheduler',
    'three',
    '@react-three/fiber',
    '@react-three/drei',
    '@react-three/rapier',
    'suspend-react',
    'three-stdlib',
    'fflate',
    'fast-png',
    'meshoptimizer',
  ]) {
    mkdirSync(dirname(join(modules, name)), { recursive: true })
    symlinkSync(join(root, 'node_modules', name), join(modules, name), 'dir')
  }
  writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'size-app', private: true, type: 'module' }))

  const measured = { baseline: await measure(join(work, 'baseline'), BASELINE) }
  const results = []
  for (const entry of [...CASES, REFERENCE]) {
    if (only && !only.includes(entry.name)) continue
    const built = (measured[entry.name] = await measure(join(work, entry.name), entry.code, entry.external))
    const base = entry.base
      ? (measured[entry.base] ??= await measure(join(work, entry.base), CASES.find((c) => c.name === entry.base).code, entry.external))
      : measured.baseline
    const upFront = built.upFront - base.upFront
    const baseChunks = new Set(base.onDemand.map((chunk) => chunk.name))
    const onDemand = built.onDemand.filter((chunk) => !baseChunks.has(chunk.name))
    const ids = built.modules.map(([id]) => id)
    const found = [...(entry.forbid ?? []), ...(entry === REFERENCE ? [] : SIMPLIFIER)].flatMap((pattern) =>
      ids.filter((id) => pattern.test(id)).map((id) => id.replace(/.*node_modules[/\\]/, '')),
    )
    const problems = []
    if (entry.budget !== undefined && upFront > entry.budget * 1000)
      problems.push(`${upFront} bytes are over its budget of ${entry.budget} kB (${entry.budget * 1000} bytes)`)
    // A case measured over another: the app as a whole (the other case's growth and this one's) has a budget too.
    const whole = entry.base ? upFront + base.upFront - measured.baseline.upFront : upFront
    if (entry.total !== undefined && whole > entry.total * 1000)
      problems.push(`the app as a whole, ${whole} bytes, is over its budget of ${entry.total} kB (${entry.total * 1000} bytes)`)
    if (found.length > 0) problems.push(`bundles what it must not: ${[...new Set(found)].join(', ')}`)
    const upFrontIds = built.upFrontModules
    const early = (entry.deferred ?? []).flatMap((pattern) =>
      upFrontIds.filter((id) => pattern.test(id)).map((id) => id.replace(/.*node_modules[/\\]/, '')),
    )
    if (early.length > 0) problems.push(`loads up front what it must load on demand: ${[...new Set(early)].join(', ')}`)
    if (args.includes('--modules')) {
      const library = built.modules
        .filter(([id]) => /react-three-md2|fflate|fast-png/.test(id))
        .sort((a, b) => b[1].renderedLength - a[1].renderedLength)
      for (const [id, info] of library)
        console.log(`    ${String(info.renderedLength).padStart(7)} ${id.replace(/.*node_modules[/\\]/, '')}`)
    }
    const later = onDemand.map((chunk) => ({ name: chunk.name, kb: kB(chunk.bytes) }))
    results.push({
      name: entry.name,
      label: entry.label,
      bytes: upFront,
      kb: kB(upFront),
      budget: entry.budget ?? null,
      onDemand: later,
      problems,
    })
    console.log(
      `${problems.length ? '✗' : '✓'} ${entry.label}: +${kB(upFront)} kB gzip up front (${upFront} bytes)` +
        (entry.budget !== undefined ? ` (budget ${entry.budget} kB)` : '') +
        (later.length ? `; on demand: ${later.map((c) => `${c.name} ${c.kb} kB`).join(', ')}` : '') +
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
