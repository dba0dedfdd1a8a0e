#!/usr/bin/env node
/**
 * The package as a user's toolchain meets it: packs the library, then
 *  1. @arethetypeswrong/cli on the tarball: every entry must resolve with types under node16 (ESM),
 *     bundler and node10 (through `typesVersions`); an ESM-only package is expected to be
 *     import()-only from CommonJS, so that one rule is ignored;
 *  2. publint (strict) on the package;
 *  3. a consumer project that installs the tarball and type-checks with `moduleResolution: "nodenext"`
 *     and `skipLibCheck: false`: its good files must check cleanly, the types must be real (an
 *     `@ts-expect-error` on a wrong assignment must be needed), and one deliberate error
 *     (`<MD2Model notAProp={1} />`) must be reported. `react-three-md2/rapier` is used there with
 *     @react-three/rapier, its optional peer.
 * Needs no network: the consumer's peers are linked from this repository's node_modules.
 *
 *   node scripts/check-package.mjs [--keep]
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PACKAGE_DEPENDENCIES, installPacked, packLibrary, root } from './packed-consumer.mjs'

/** The optional peer `react-three-md2/rapier` needs, and what its types import. */
const RAPIER_DEPENDENCIES = ['@react-three/rapier', 'three-stdlib', 'suspend-react']

const keep = process.argv.includes('--keep')
const bin = (name) => join(root, 'node_modules/.bin', name)
const work = mkdtempSync(join(tmpdir(), 'md2-package-'))

function run(command, args, options = {}) {
  console.log(`$ ${[command, ...args].join(' ')}`)
  execFileSync(command, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], ...options })
}

try {
  const tarball = packLibrary(work)

  // 1. Types resolve in every mode TypeScript has.
  run(bin('attw'), [tarball, '--ignore-rules', 'cjs-resolves-to-esm'])
  // 2. The package's metadata.
  run(bin('publint'), ['--strict'])

  // 3. A consumer under nodenext with library checking on.
  const app = join(work, 'consumer')
  // The peers and dependencies as this repository has them (the versions the library is tested with).
  installPacked(app, tarball, [...PACKAGE_DEPENDENCIES, ...RAPIER_DEPENDENCIES])
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2))
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          jsx: 'react-jsx',
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          types: [],
          lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        },
        include: ['src'],
      },
      null,
      2,
    ),
  )
  mkdirSync(join(app, 'src'))
  writeFileSync(
    join(app, 'src/app.tsx'),
    `import { MD2Model, MD2Instances, MD2Quake2Lighting, useMD2, type MD2ModelProps } from 'react-three-md2'

export function Ogro(props: Partial<MD2ModelProps>) {
  const model = useMD2('/players/ogro/tris.md2')
  return (
    <MD2Model {...props} model={model} animation="run" crossfade={0.2}>
      <MD2Quake2Lighting />
    </MD2Model>
  )
}
export const army = <MD2Instances url="/players/ogro/tris.md2" limit={10} />
// Real types, not \`any\`: a wrong prop type must be an error.
// @ts-expect-error animation takes a name, an index or an animation, not a boolean
export const wrong = <MD2Model url="/players/ogro/tris.md2" animation={true} />
`,
  )
  writeFileSync(
    join(app, 'src/tools.ts'),
    `import { parseMD2, decodeFrame, MD2Error, type MD2ModelData } from 'react-three-md2/core'
import { ANORMS, buildGlCommands } from 'react-three-md2/internal'

export function frames(bytes: Uint8Array): number {
  const model: MD2ModelData = parseMD2(bytes)
  const positions: Float32Array = decodeFrame(model, 0)
  return positions.length + ANORMS.length + (buildGlCommands === undefined ? 0 : 1)
}
export const isError = (e: unknown): boolean => e instanceof MD2Error
// @ts-expect-error numFrames is a number
export const name: string = parseMD2(new Uint8Array()).header.numFrames
`,
  )
  writeFileSync(
    join(app, 'src/physics.tsx'),
    `import { Physics, RigidBody, type RapierCollider } from '@react-three/rapier'
import { useRef } from 'react'
import { MD2Player } from 'react-three-md2'
import { MD2Collider, type MD2ColliderProps } from 'react-three-md2/rapier'

export function Player(props: Partial<MD2ColliderProps>) {
  const collider = useRef<RapierCollider>(null)
  return (
    <Physics>
      <RigidBody type="kinematicPosition" colliders={false}>
        <MD2Player path="/players/ogro/" height={1.7} origin="feet">
          <MD2Collider ref={collider} shape="capsule" friction={0.5} {...props} />
        </MD2Player>
      </RigidBody>
    </Physics>
  )
}
// @ts-expect-error the shape is "cuboid" or "capsule"
export const ball = <MD2Collider shape="ball" />
`,
  )
  writeFileSync(
    join(app, 'src/deliberate-error.tsx'),
    `import { MD2Model } from 'react-three-md2'

export const typo = <MD2Model url="/players/ogro/tris.md2" notAProp={1} />
`,
  )
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', '.'], { cwd: app, encoding: 'utf8' })
  const output = `${tsc.stdout}${tsc.stderr}`
  // rapier's own typings (@dimforge/rapier3d-compat, under @react-three/rapier) import relative paths without
  // extensions, which nodenext refuses in a checked library, and @react-three/rapier's declarations then find
  // none of its names: theirs to fix, and the same without this package.
  const errors = output
    .split('\n')
    .filter((line) => /error TS\d+/.test(line))
    .filter((line) => !/node_modules\/@react-three\/rapier\/node_modules\/@dimforge\//.test(line))
    .filter((line) => !/node_modules\/@react-three\/rapier\/dist\/.*"@dimforge\/rapier3d-compat"/.test(line))
  const deliberate = errors.filter((line) => line.startsWith('src/deliberate-error.tsx') && line.includes('notAProp'))
  const others = errors.filter((line) => !line.startsWith('src/deliberate-error.tsx'))
  if (others.length > 0 || deliberate.length !== 1 || errors.length !== 1) {
    console.error(output)
    throw new Error(
      `nodenext consumer: expected exactly the deliberate error (notAProp), got ${errors.length} error(s)` +
        (deliberate.length === 0 ? ', and the deliberate one was not reported' : ''),
    )
  }
  console.log(`nodenext consumer (skipLibCheck: false): the deliberate error is reported, nothing else: ${deliberate[0]}`)
  console.log('Package checks passed: attw (node10, node16 ESM, bundler), publint --strict, nodenext consumer.')
} finally {
  if (keep) console.log(`kept ${work}`)
  else rmSync(work, { recursive: true, force: true })
}
