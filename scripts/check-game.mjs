#!/usr/bin/env node
/**
 * One grammar for game makers, as a newcomer's app meets it: packs this library, creates a fresh Vite
 * React + TypeScript app, installs the tarball beside @react-three/fiber 9.8 and @react-three/drei 10.7
 * (peer dependencies strict), writes the sample models as the README's quick start does (`npx react-three-md2
 * samples public/players`: the ogro the game plays comes from the package), adds this check's own fixtures
 * (Ratamahatta, a model naming no skin; UFO:AI's soldier, an .anm by URL) from assets/, and builds two
 * pages: `#game`, the README's game pasted as it is, and `#checks`, a scene of the README's parts with a
 * probe. In Debian's Chromium:
 *
 * - a click on one of two `<MD2Instance>`s fires that instance's `onClick` alone, and a click on empty
 *   space fires none (drei's `<OrbitControls>` on the same canvas);
 * - an `<MD2Player>` dressed with an `<MD2Shell>` child shows the shell on its body and on its weapon;
 * - `usePlayerAnimation()` driving that player reads out `animation.name` and a frame that moves;
 * - a model that names no skin, drawn with none given, warns (and shows the checkerboard);
 * - the README's game kills the enemy clicked, once;
 * - `#strict`, in the production build and on Vite's dev server (the template's `<StrictMode>`): an
 *   `<MD2Instance>`'s events (frames, loop, end) fire once each, in order; an `.anm` loaded by URL
 *   (`useMD2AnimationTable`) plays; props on the wrong component warn once on the dev server, naming where
 *   they belong, and not at all in the production build.
 * - `#physics`, on Vite's dev server in <StrictMode>: the README's game with physics
 *   (docs/physics.md's game, examples/snippets/physics-game.tsx, pasted as it is, beside @react-three/rapier at the version this
 *   repository develops against), driven through the `controls` it takes and read through rapier's world (a
 *   child of its `<Physics>`): the player stands on the rapier floor, walks forward and stops at the enemy in its
 *   way, even pushed on; an enemy clicked where it shows on screen plays its death and its collider lies down with
 *   it, where it fell.
 *
 * No console error, page error or failed request on either page. Ends `N passed, M failed`. Needs the npm
 * registry (create-vite, packages).
 *
 *   node scripts/check-game.mjs [--keep]
 */
import { spawn } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright'
import { checks, expect, frames, screenshotPixels, testApp } from '../examples/scripts/browser.mjs'
import {
  codeBlocks,
  freshViteApp,
  installedVersion,
  npmInstall,
  readmeSection,
  root,
  run,
  samplesCommand,
  writeSamples,
} from './fresh-app.mjs'
import { checkPhysicsPage, checkStrictPage } from './game-page-checks.mjs'

const keep = process.argv.includes('--keep')
const game = codeBlocks(readmeSection('A game in a hundred lines'), 'tsx')[0]
if (!game) throw new Error("README: no game block in 'A game in a hundred lines'")
const samples = samplesCommand()
// The game as docs/physics.md shows it (its copy of examples/snippets/physics-game.tsx, kept equal by test/docs-samples).
const physicsGame = /<!-- the file examples\/snippets\/physics-game\.tsx, verbatim[^\n]*\n```tsx\n([\s\S]*?)```/.exec(
  readFileSync(join(root, 'docs/physics.md'), 'utf8'),
)?.[1]
if (!physicsGame) throw new Error('docs/physics.md: no game block (the file examples/snippets/physics-game.tsx)')
const rapierVersion = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies['@react-three/rapier']

/** The parts the issue names, with a probe: what each instance's onClick saw, the player's readout, the shells drawn. */
const CHECKS = `import { OrbitControls } from '@react-three/drei'
import { Canvas, useFrame, useThree } from '@react-three/fiber'
import { Suspense, useRef } from 'react'
import { Vector3, type Group, type Mesh } from 'three'
import { MD2Instance, MD2Instances, MD2Model, MD2Player, MD2Shell, usePlayerAnimation } from 'react-three-md2'

const seen = { clicks: [0, 0], animation: '', frames: [] as number[], shells: [] as { name: string; vertices: number }[], onScreen: {} as Record<string, [number, number]> }
;(window as unknown as { checks: { state(): typeof seen } }).checks = { state: () => JSON.parse(JSON.stringify(seen)) }

const PLACES: Record<string, [number, number, number]> = { left: [-70, 0, -60], right: [70, 0, -60] }

function Probe() {
  const camera = useThree((state) => state.camera)
  const size = useThree((state) => state.size)
  useFrame(() => {
    for (const [name, place] of Object.entries(PLACES)) {
      const point = new Vector3(...place).project(camera)
      seen.onScreen[name] = [((point.x + 1) / 2) * size.width, ((1 - point.y) / 2) * size.height]
    }
  })
  return null
}

function Player() {
  const player = usePlayerAnimation()
  const root = useRef<Group>(null)
  useFrame(() => {
    seen.animation = player.animation.name
    seen.frames = [...seen.frames.slice(-19), player.frame]
    const shells: { name: string; vertices: number }[] = []
    root.current?.traverse((node) => {
      const mesh = node as Mesh
      if (mesh.isMesh && mesh.name.endsWith(' shell') && mesh.visible) {
        const position = mesh.geometry.getAttribute('position')
        let written = 0
        for (let i = 0; i < position.count; i++) if (position.getX(i) !== 0 || position.getY(i) !== 0) written++
        shells.push({ name: mesh.name, vertices: written })
      }
    })
    seen.shells = shells
  })
  return (
    <MD2Player ref={root} path="/players/ogro/" files={['tris.MD2', 'igdosh.pcx', 'weapon.md2', 'weapon.pcx']} skin="igdosh" weapon="weapon" controller={player} position={[0, 0, 20]}>
      <MD2Shell color="blue" />
    </MD2Player>
  )
}

export default function Checks() {
  return (
    <Canvas camera={{ position: [0, 20, 140], fov: 50 }} style={{ height: '100svh' }}>
      <color attach="background" args={['#1d2733']} />
      <hemisphereLight args={['#ffffff', '#5a4a3a', 2.5]} />
      <OrbitControls makeDefault enabled={false} />
      <Probe />
      <Suspense fallback={null}>
        <MD2Instances url="/players/ogro/tris.MD2" limit={2}>
          <MD2Instance position={PLACES.left} animation="stand" onClick={(event) => { event.stopPropagation(); seen.clicks[0]++ }} />
          <MD2Instance position={PLACES.right} animation="stand" onClick={(event) => { event.stopPropagation(); seen.clicks[1]++ }} />
        </MD2Instances>
        <Player />
        <MD2Model url="/players/ratamahatta/tris.md2" position={[0, 40, -120]} />
      </Suspense>
    </Canvas>
  )
}
`

/**
 * React as apps run it (the template's main.tsx renders the app in <StrictMode>): a crowd's events, props on the
 * wrong component, an animation table by URL. JavaScript users get no type error for a misplaced prop: the
 * props go in untyped.
 */
const STRICT = `import { Canvas } from '@react-three/fiber'
import { Suspense, useRef } from 'react'
import { MD2Instance, MD2Instances, MD2Model, MD2Player, useMD2AnimationTable, type MD2AnimationController } from 'react-three-md2'

type Event = string | number
const seen = { dying: [] as Event[], running: [] as Event[], range: {} as Record<string, [number, number]>, table: 0, animation: '', frames: [] as number[] }
// This page's probe (the checks page, imported too, sets its own).
if (location.hash === '#strict') (window as unknown as { checks: { state(): typeof seen } }).checks = { state: () => JSON.parse(JSON.stringify(seen)) }

/** As a JavaScript user writes them: props the component does not take. */
const untyped = (props: Record<string, unknown>): object => props

function Soldier() {
  const table = useMD2AnimationTable('/ufoai/soldier/body.anm')
  seen.table = table.length
  const controller = useRef<MD2AnimationController>(null)
  return (
    <MD2Model
      url="/ufoai/soldier/body.md2"
      skin={null}
      animationTable={table}
      animation="walk1"
      controllerRef={controller}
      position={[0, 0, -80]}
      onFrame={(frame, animation) => {
        seen.animation = animation.name
        seen.frames = [...seen.frames.slice(-19), frame]
      }}
    />
  )
}

export default function Strict() {
  return (
    <Canvas camera={{ position: [0, 20, 140], fov: 50 }} style={{ height: '100svh' }}>
      <hemisphereLight args={['#ffffff', '#5a4a3a', 2.5]} />
      <Suspense fallback={null}>
        <MD2Instances url="/players/ogro/tris.MD2" skin="igdosh.pcx" limit={2} {...untyped({ animation: 'run' })}>
          <MD2Instance
            position={[-40, 0, 0]}
            animation="death1"
            loop={false}
            onFrame={(frame, animation) => {
              seen.range.death1 = [animation.start, animation.end]
              seen.dying.push(frame)
            }}
            onLoop={() => seen.dying.push('loop')}
            onAnimationEnd={() => seen.dying.push('end')}
          />
          <MD2Instance
            position={[40, 0, 0]}
            animation="run"
            onFrame={(frame, animation) => {
              seen.range.run = [animation.start, animation.end]
              seen.running.push(frame)
            }}
            onLoop={() => seen.running.push('loop')}
            onAnimationEnd={() => seen.running.push('end')}
          />
        </MD2Instances>
        <MD2Player path="/players/ogro/" files={['tris.MD2', 'igdosh.pcx']} skin="igdosh" {...untyped({ url: '/players/ogro/tris.MD2' })} position={[0, 0, 40]} />
        <Soldier />
      </Suspense>
    </Canvas>
  )
}
`

/**
 * The physics game as the snippet is (src/PhysicsGame.tsx), with a probe in its <Physics>: the `controls` it takes
 * (the checks write them, as the keys would), and rapier's colliders as boxes in the world (the player's capsule
 * on its kinematic body, the enemies' on no body), the enemies' chests on screen. Its colliders' shapes: 1 a
 * cuboid, else an upright capsule (what <MD2Collider> makes).
 */
const PHYSICS = `import { useThree } from '@react-three/fiber'
import { useRapier } from '@react-three/rapier'
import { Vector3, type Camera } from 'three'
import PhysicsGame, { ENEMIES, type Controls } from './PhysicsGame'

type World = ReturnType<typeof useRapier>['world']
type Collider = Parameters<Parameters<World['forEachCollider']>[0]>[0]

const controls: Controls = { forward: 0, turn: 0, jump: false, attack: false }
const reached: { world?: World; camera?: Camera; size?: { width: number; height: number } } = {}

function boxOf(collider: Collider) {
  const at = collider.translation()
  const half = collider.shapeType() === 1 ? collider.halfExtents() : { x: collider.radius(), y: collider.halfHeight() + collider.radius(), z: collider.radius() }
  return { handle: collider.handle, x: at.x, y: at.y, z: at.z, minY: at.y - half.y, maxY: at.y + half.y, halfZ: half.z }
}

function state() {
  const { world, camera, size } = reached
  if (!world || !camera || !size) return { player: null, enemies: [], onScreen: [] }
  let player: ReturnType<typeof boxOf> | null = null
  const enemies: ReturnType<typeof boxOf>[] = []
  world.forEachCollider((collider) => {
    const body = collider.parent()
    if (body?.isKinematic()) player = boxOf(collider)
    else if (!body) enemies.push(boxOf(collider))
  })
  const onScreen = ENEMIES.map(({ x, z }) => {
    const point = new Vector3(x, 1.1, z).project(camera)
    return [((point.x + 1) / 2) * size.width, ((1 - point.y) / 2) * size.height]
  })
  return { player, enemies, onScreen, places: ENEMIES }
}
if (location.hash === '#physics') (window as unknown as { checks: object }).checks = { state, controls }

function Probe() {
  reached.world = useRapier().world
  reached.camera = useThree((three) => three.camera)
  reached.size = useThree((three) => three.size)
  return null
}

export default function Physics() {
  return (
    <PhysicsGame controls={controls}>
      <Probe />
    </PhysicsGame>
  )
}
`

const APP = `import Checks from './Checks'
import Game from './Game'
import Physics from './Physics'
import Strict from './Strict'

export default function App() {
  return location.hash === '#game' ? <Game /> : location.hash === '#strict' ? <Strict /> : location.hash === '#physics' ? <Physics /> : <Checks />
}
`

/** A free port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** Vite's dev server on the app, as `npm run dev` starts it: `{ url, stop }` once it answers. */
async function devServer(appDir) {
  const port = await freePort()
  const child = spawn(join(appDir, 'node_modules/.bin/vite'), ['--port', String(port), '--strictPort', '--host', '127.0.0.1'], {
    cwd: appDir,
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const url = `http://127.0.0.1:${port}/`
  const deadline = Date.now() + 60_000
  for (;;) {
    try {
      if ((await fetch(url)).ok) break
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill()
      throw new Error(`Vite's dev server did not answer at ${url} within 60 s`)
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return { url, stop: () => child.kill() }
}

const work = mkdtempSync(join(tmpdir(), 'md2-game-'))
const { check, finish } = checks()
try {
  const { appDir, tarball } = freshViteApp(work)
  npmInstall([tarball, 'three', '@react-three/fiber@9.8', '@react-three/drei@10.7', `@react-three/rapier@${rapierVersion}`], appDir)
  npmInstall(['-D', '@types/three'], appDir)
  console.log(
    `installed: ${['three', '@react-three/fiber', '@react-three/drei', '@react-three/rapier', 'react'].map((name) => `${name} ${installedVersion(appDir, name)}`).join(', ')}`,
  )
  writeFileSync(join(appDir, 'src/Game.tsx'), game)
  writeFileSync(join(appDir, 'src/Checks.tsx'), CHECKS)
  writeFileSync(join(appDir, 'src/Strict.tsx'), STRICT)
  writeFileSync(join(appDir, 'src/PhysicsGame.tsx'), physicsGame)
  writeFileSync(join(appDir, 'src/Physics.tsx'), PHYSICS)
  writeFileSync(join(appDir, 'src/App.tsx'), APP)
  // The template renders the app in <StrictMode>, as the dev server run below needs.
  if (!readFileSync(join(appDir, 'src/main.tsx'), 'utf8').includes('<StrictMode>'))
    throw new Error("create-vite's main.tsx no longer renders the app in <StrictMode>")
  // The template's CSS centres a narrow #root; the game fills the page.
  writeFileSync(join(appDir, 'src/index.css'), 'body { margin: 0 }\n')
  writeSamples(appDir, samples)
  cpSync(join(root, 'assets/quake2/ratamahatta'), join(appDir, 'public/players/ratamahatta'), { recursive: true })
  cpSync(join(root, 'assets/ufoai/soldier-male'), join(appDir, 'public/ufoai/soldier'), { recursive: true })
  // tsc -b, then vite build: the README's game and the checks type-check as an app's own code.
  run('npm', ['run', 'build'], appDir)
  const dist = join(appDir, 'dist')

  await testApp({ chromium, dist, probe: 'checks', check, timeout: 60_000 }, async ({ page, warnings, waitFor }) => {
    const loaded = await waitFor((s) => s.shells.length > 0 && s.onScreen.left && s.frames.length > 5, 'the player and the crowd to load')
    const click = async ([x, y]) => {
      await page.mouse.click(x, y)
      await frames(page, 3)
    }
    await check('a click on one of two instances fires its onClick alone; a click on empty space fires none', async () => {
      const { left, right } = loaded.onScreen
      // The chest, above the waist the instance's origin is at.
      await click([left[0], left[1] - 12])
      let seen = await waitFor((s) => s.clicks[0] + s.clicks[1] > 0, 'a click on the left instance', 10_000)
      expect(seen.clicks[0] === 1 && seen.clicks[1] === 0, `clicks ${JSON.stringify(seen.clicks)} after clicking the left one`)
      await click([right[0], right[1] - 12])
      seen = await waitFor((s) => s.clicks[1] > 0, 'a click on the right instance', 10_000)
      expect(seen.clicks[0] === 1 && seen.clicks[1] === 1, `clicks ${JSON.stringify(seen.clicks)} after clicking the right one`)
      await click([20, 20])
      await click([(left[0] + right[0]) / 2, left[1] - 120])
      seen = await waitFor(() => true, 'the probe')
      expect(seen.clicks[0] === 1 && seen.clicks[1] === 1, `clicks ${JSON.stringify(seen.clicks)} after two clicks on empty space`)
    })
    await check('<MD2Player> dressed with <MD2Shell> shows the shell on its body and on its weapon', async () => {
      const seen = await waitFor((s) => s.shells.length === 2, 'two shells', 10_000)
      const vertices = seen.shells.map((shell) => shell.vertices)
      expect(vertices.every((count) => count > 50) && vertices[0] !== vertices[1], `shells ${JSON.stringify(seen.shells)}`)
    })
    await check("the player's controller reads out animation.name and a frame that moves", async () => {
      const seen = await waitFor((s) => s.frames.length >= 20, 'twenty frames')
      expect(seen.animation === 'stand', `animation.name is ${JSON.stringify(seen.animation)}`)
      const moving = new Set(seen.frames.map((frame) => frame.toFixed(3))).size
      expect(moving > 5 && seen.frames.every((frame) => frame >= 0 && frame <= 39), `frames ${seen.frames.join(', ')}`)
    })
    await check('a model that names no skin, drawn with none given, warns', async () => {
      const said = warnings.filter((text) => /ratamahatta\/tris\.md2 has no skin to show and none was given.*checkerboard/.test(text))
      expect(said.length === 1, `warnings: ${JSON.stringify(warnings)}`)
    })
  })

  await testApp({ chromium, dist, path: '#game', probe: 'checks', check, timeout: 60_000 }, async ({ page }) => {
    await check("the README's game: a click kills the enemy under the pointer, once", async () => {
      const kills = async () => Number(/Kills: (\d+)/.exec(await page.textContent('body'))?.[1])
      // The first enemy's chest, where the game's camera (at [0, 30, 130], fov 50, looking at the origin as R3F
      // points it) shows it.
      const target = await page.evaluate(() => {
        const eye = [0, 30, 130]
        const length = Math.hypot(...eye)
        const forward = eye.map((c) => -c / length)
        // right = forward × up (0, 1, 0); up' = right × forward
        const right = [-forward[2], 0, forward[0]].map((c, _, r) => c / Math.hypot(...r))
        const up = [
          right[1] * forward[2] - right[2] * forward[1],
          right[2] * forward[0] - right[0] * forward[2],
          right[0] * forward[1] - right[1] * forward[0],
        ]
        const d = [-90 - eye[0], 6 - eye[1], -120 - eye[2]]
        const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
        const f = 1 / Math.tan((50 * Math.PI) / 360)
        const x = (dot(d, right) * f) / (innerWidth / innerHeight) / dot(d, forward)
        const y = (dot(d, up) * f) / dot(d, forward)
        return [((x + 1) / 2) * innerWidth, ((1 - y) / 2) * innerHeight]
      })
      const deadline = Date.now() + 60_000
      while ((await kills()) === 0 && Date.now() < deadline) {
        await page.mouse.click(target[0], target[1])
        await page.waitForTimeout(500)
      }
      expect((await kills()) === 1, `kills ${await kills()} after clicking the first enemy`)
      await page.mouse.click(target[0], target[1])
      await page.mouse.click(20, 60)
      await frames(page, 5)
      expect((await kills()) === 1, `kills ${await kills()} after clicking it again and the sky`)
      const pixels = await screenshotPixels(page)
      expect(pixels.width > 0, 'no screenshot')
    })
  })

  await testApp({ chromium, dist, path: '#strict', probe: 'checks', check, timeout: 60_000 }, (app) =>
    checkStrictPage(app, { development: false, check }),
  )
  const dev = await devServer(appDir)
  try {
    await testApp({ chromium, url: dev.url, path: '#strict', probe: 'checks', check, timeout: 120_000 }, (app) =>
      checkStrictPage(app, { development: true, check }),
    )
    const physicsStarted = Date.now()
    await testApp({ chromium, url: dev.url, path: '#physics', probe: 'checks', check, timeout: 120_000 }, (app) =>
      checkPhysicsPage(app, check),
    )
    console.log(`      the physics page took ${((Date.now() - physicsStarted) / 1000).toFixed(1)} s`)
  } finally {
    dev.stop()
  }
} catch (error) {
  await check('the app builds and opens', () => {
    throw error
  })
} finally {
  finish()
  if (!keep) rmSync(work, { recursive: true, force: true })
  else console.log(`kept ${work}`)
}
