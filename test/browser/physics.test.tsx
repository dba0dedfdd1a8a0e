/**
 * Physics in Chromium under <StrictMode>, rapier's WebAssembly loaded from its package (no network):
 *  - the README's enemies (examples/snippets/physics-crowd.tsx, the README's block verbatim: a crowd with
 *    `height` and `origin`, an `<MD2Collider />` in each `<MD2Instance>`): each collider on its instance's drawn
 *    pose, a patrol's moving with it, the player stopped by a living enemy and walking over a dead one;
 *  - the whole game (examples/snippets/physics-game.tsx, docs/physics.md's): rapier's character controller walks
 *    the Ogro on a rapier floor and stops at an enemy's <MD2Collider>; a shot enemy falls, its collider with it.
 */
import { Canvas, useThree } from '@react-three/fiber'
import { CuboidCollider, Physics, RigidBody, useAfterPhysicsStep, useRapier } from '@react-three/rapier'
import { StrictMode, Suspense, act } from 'react'
import { Box3, Matrix4, Quaternion, Vector3, type Camera, type Object3D } from 'three'
import { afterEach, expect, test, vi } from 'vitest'
import { userEvent } from 'vitest/browser'
import { Enemies as ReadmeEnemies } from '../../examples/snippets/physics-crowd'
import PhysicsGame, { ENEMIES, Player, type Controls } from '../../examples/snippets/physics-game'
import type { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import { openHost } from './canvas'

afterEach(() => {
  vi.restoreAllMocks()
})

/** rapier's world, as @react-three/rapier has it (its own copy of rapier, not another package's). */
type World = ReturnType<typeof useRapier>['world']

const frames = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => requestAnimationFrame(resolve))
}

/** The games' /players/ogro/ is this repository's ogro folder. */
function serveOgro() {
  const served = globalThis.fetch.bind(globalThis)
  vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) =>
    served(String(input).replace('/players/ogro/', '/assets/quake2/ogro/'), init),
  )
}

/** Where the README's enemies stand (metres): one in the player's way, one clear of it. */
const PLACES: [number, number][] = [
  [0, 0],
  [-2.5, -1],
]

/** The crowd under `scene` (the one `<MD2Instances>` draws). */
function crowdIn(scene: Object3D): MD2Crowd {
  let crowd: MD2Crowd | undefined
  scene.traverse((object) => {
    if ('getPoseBounds' in object) crowd = object as MD2Crowd
  })
  expect(crowd).toBeDefined()
  return crowd!
}

/**
 * How far (metres) a collider's world box is from the drawn pose's box of instance `i` of `crowd` (in the crowd's
 * space, the world's here), the collider the one standing nearest where `i` is drawn: the most any face of it lies
 * outside the drawn box's (`outward`) and inside it (`inward`, where the collider cuts into the character).
 */
function offBy(world: World, handles: readonly number[], crowd: MD2Crowd, i: number): { outward: number; inward: number } {
  const box = crowd.getPoseBounds(i, new Box3())
  const centre = box.getCenter(new Vector3())
  const distance = (handle: number) => Math.hypot(boxOf(world, handle).x - centre.x, boxOf(world, handle).z - centre.z)
  const c = boxOf(
    world,
    handles.reduce((a, b) => (distance(a) < distance(b) ? a : b)),
  )
  // Each face's distance outside the drawn box's (negative: inside it).
  const outside = [
    box.min.x - (c.x - c.halfX),
    c.x + c.halfX - box.max.x,
    box.min.y - c.minY,
    c.maxY - box.max.y,
    box.min.z - (c.z - c.halfZ),
    c.z + c.halfZ - box.max.z,
  ]
  return { outward: Math.max(0, ...outside), inward: Math.max(0, ...outside.map((d) => -d)) }
}

const turn = new Matrix4()
/** The world's box of a collider (a cuboid, turned as it is, or an upright capsule) placed in it, as rapier has it now. */
function boxOf(world: World, handle: number) {
  const collider = world.getCollider(handle)
  const at = collider.translation()
  let half: { x: number; y: number; z: number }
  if (collider.shapeType() === 1) {
    const h = collider.halfExtents()
    const e = turn.makeRotationFromQuaternion(new Quaternion().copy(collider.rotation())).elements
    // The box of the turned box: each axis takes every half-extent by the size of its direction's component.
    half = {
      x: Math.abs(e[0]!) * h.x + Math.abs(e[4]!) * h.y + Math.abs(e[8]!) * h.z,
      y: Math.abs(e[1]!) * h.x + Math.abs(e[5]!) * h.y + Math.abs(e[9]!) * h.z,
      z: Math.abs(e[2]!) * h.x + Math.abs(e[6]!) * h.y + Math.abs(e[10]!) * h.z,
    }
  } else half = { x: collider.radius(), y: collider.halfHeight() + collider.radius(), z: collider.radius() }
  return {
    x: at.x,
    y: at.y,
    z: at.z,
    minY: at.y - half.y,
    maxY: at.y + half.y,
    halfX: half.x,
    halfZ: half.z,
    enabled: collider.isEnabled(),
  }
}

/** The player's capsule (on its kinematic body) and the enemies' colliders (on no body), once each is fitted. */
async function findColliders(world: () => World | undefined, count: number) {
  return vi.waitFor(
    () => {
      const w = world()
      expect(w).toBeDefined()
      let player: number | undefined
      const enemies: number[] = []
      w!.forEachCollider((collider) => {
        const body = collider.parent()
        if (body?.isKinematic()) player = collider.handle
        else if (!body) enemies.push(collider.handle)
      })
      expect(player).toBeDefined()
      expect(enemies).toHaveLength(count)
      // Fitted to an Ogro 1.7 m tall (standing, or running: its pose's box), no longer the unit shapes they are
      // made at (2 m tall), nor the file's units (26.7 m).
      for (const handle of [player!, ...enemies]) {
        const { minY, maxY } = boxOf(w!, handle)
        expect(maxY - minY).toBeGreaterThan(1.3)
        expect(maxY - minY).toBeLessThan(1.9)
      }
      return { player: player!, enemies }
    },
    { timeout: 60_000, interval: 200 },
  )
}

/**
 * What a test reads of the game as it runs: rapier's world, the camera and the scene, and `afterStep` called after
 * every physics step while set (where the crowd's clock is where it was when the colliders were fitted: it moves
 * on in the crowd's own useFrame, after rapier's step, so a collider is a frame behind what is drawn).
 */
function gameProbe() {
  const seen: { world?: World; camera?: Camera; scene?: Object3D; afterStep?: (world: World, crowd: MD2Crowd) => void } = {}
  function Probe() {
    seen.world = useRapier().world
    seen.camera = useThree((state) => state.camera)
    seen.scene = useThree((state) => state.scene)
    useAfterPhysicsStep(() => seen.afterStep?.(seen.world!, crowdIn(seen.scene!)))
    return null
  }
  /** Where the camera shows a world point, in the canvas's pixels. */
  const onScreen = (canvas: HTMLCanvasElement, x: number, y: number, z: number) => {
    const point = new Vector3(x, y, z).project(seen.camera!)
    return { x: Math.round(((point.x + 1) / 2) * canvas.clientWidth), y: Math.round(((1 - point.y) / 2) * canvas.clientHeight) }
  }
  return { seen, Probe, onScreen }
}

/**
 * The player stopped at a living enemy's box: on the floor, its capsule's front at the box's face (which moves as
 * the enemy breathes and swings its arms, by up to 30 cm on the Ogro: the box is refitted when it has moved by a
 * model unit, 3 cm here), its body in front of the enemy's centre (it did not pass into it).
 */
function expectStoppedAtFace(stopped: ReturnType<typeof boxOf>, enemy: ReturnType<typeof boxOf>) {
  expect(Math.abs(stopped.minY), 'on the floor when stopped').toBeLessThan(0.1)
  const gap = stopped.z - stopped.halfZ - (enemy.z + enemy.halfZ)
  expect(gap).toBeGreaterThan(-0.35)
  expect(gap).toBeLessThan(0.15)
  expect(stopped.z).toBeGreaterThan(enemy.z + 0.5)
}

/** Clicks at `at` until the enemy whose collider is `shot` falls (its collider's top lower than it stood). */
async function shootUntilFalling(
  world: World,
  canvas: HTMLCanvasElement,
  at: () => { x: number; y: number },
  shot: number,
  stoodTo: number,
) {
  await vi.waitFor(
    async () => {
      await userEvent.click(canvas, { position: at() })
      await frames(5)
      expect(boxOf(world, shot).maxY).toBeLessThan(stoodTo - 0.1)
    },
    { timeout: 30_000, interval: 500 },
  )
}

/** Drives the player forward until it stops moving; returns its box then. */
async function walkUntilStopped(world: World, player: number, controls: Controls) {
  controls.forward = 1
  let last = Infinity
  for (let tries = 0; tries < 40; tries++) {
    await frames(10)
    const now = boxOf(world, player).z
    if (Math.abs(now - last) < 1e-3) break
    last = now
  }
  controls.forward = 0
  return boxOf(world, player)
}

test("the README's enemies: colliders on the drawn poses in the crowd's height and origin, a living one blocking, a corpse walked over", async () => {
  serveOgro()
  const { seen, Probe, onScreen } = gameProbe()
  const offs: { outward: number; inward: number }[] = []
  const controls: Controls = { forward: 0, turn: 0, jump: false, attack: false }
  const { host, root } = openHost(800, 600)
  await act(async () =>
    root.render(
      <StrictMode>
        <Canvas camera={{ position: [0, 3, 8], fov: 50 }}>
          <Suspense fallback={null}>
            <Physics>
              <RigidBody type="fixed" colliders={false}>
                <CuboidCollider args={[20, 0.1, 20]} position={[0, -0.1, 0]} />
              </RigidBody>
              <Suspense fallback={null}>
                <Player controls={controls} />
              </Suspense>
              <Suspense fallback={null}>
                <ReadmeEnemies places={PLACES} />
              </Suspense>
              <Probe />
            </Physics>
          </Suspense>
        </Canvas>
      </StrictMode>,
    ),
  )
  const found = await findColliders(() => seen.world, PLACES.length)
  const w = seen.world!
  // Each box on what is drawn, measured right after physics steps (see gameProbe). The collider is the pose's
  // keyframes' boxes blended, refitted when that has moved by a model unit (3.3 cm at 1.7 m tall): it cuts into the
  // character by at most that, and stands out of it by that and what blending the boxes adds between two
  // keyframes (on the Ogro's stand, up to 8.6 cm: where the extreme vertex changes from one keyframe to the next).
  seen.afterStep = (world, crowd) => {
    for (let i = 0; i < PLACES.length; i++) offs.push(offBy(world, found.enemies, crowd, i))
  }
  await vi.waitFor(() => expect(offs.length).toBeGreaterThan(60), { timeout: 30_000, interval: 100 })
  seen.afterStep = undefined
  for (let i = 0; i < PLACES.length; i++) {
    const mine = offs.filter((_, k) => k % PLACES.length === i)
    const outward = Math.max(...mine.map((off) => off.outward))
    const inward = Math.max(...mine.map((off) => off.inward))
    const typical = mine.map((off) => Math.max(off.outward, off.inward)).sort((a, b) => a - b)[mine.length >> 1]!
    console.log(
      `enemy ${i}, ${mine.length} steps: out by up to ${outward.toFixed(3)} m, in by ${inward.toFixed(3)} m, median ${typical.toFixed(3)} m`,
    )
    expect(inward, `enemy ${i}: cuts into the drawn pose`).toBeLessThan(0.04)
    expect(outward, `enemy ${i}: stands out of the drawn pose`).toBeLessThan(0.125)
  }
  const colliderAt = (x: number, z: number) =>
    found.enemies.reduce((a, b) =>
      Math.hypot(boxOf(w, a).x - x, boxOf(w, a).z - z) < Math.hypot(boxOf(w, b).x - x, boxOf(w, b).z - z) ? a : b,
    )
  expect(new Set(PLACES.map(([x, z]) => colliderAt(x, z))).size).toBe(PLACES.length)

  // Enemy 0 stands in the player's way: walking forward, it stops at its box's face.
  const blocker = colliderAt(0, 0)
  const stopped = await walkUntilStopped(w, found.player, controls)
  const enemy = boxOf(w, blocker)
  expectStoppedAtFace(stopped, enemy)

  // Shot, it falls (its collider lying down with it), then its death has played: a corpse that blocks nothing.
  const canvas = host.querySelector('canvas')!
  await shootUntilFalling(w, canvas, () => onScreen(canvas, 0, 1.3, 0), blocker, enemy.maxY)
  await vi.waitFor(() => expect(boxOf(w, blocker).enabled).toBe(false), { timeout: 20_000, interval: 200 })
  expect(boxOf(w, blocker).maxY).toBeLessThan(0.6 * enemy.maxY)
  // The others still stand, and still block.
  expect(boxOf(w, colliderAt(-2.5, -1)).enabled).toBe(true)
  // The player walks on, over the corpse, on the floor.
  controls.forward = 1
  await vi.waitFor(() => expect(boxOf(w, found.player).z).toBeLessThan(enemy.z - 1), { timeout: 20_000, interval: 50 })
  controls.forward = 0
  const passed = boxOf(w, found.player)
  expect(Math.abs(passed.minY), 'on the floor past the corpse').toBeLessThan(0.1)
  await act(async () => root.unmount())
  host.remove()
}, 180_000)
test('the game: the player walks on a rapier floor and stops at an enemy, a patrol moves with its collider, a shot enemy falls and its collider with it', async () => {
  serveOgro()
  const { seen, Probe, onScreen } = gameProbe()
  /** The patrol's collider's x and its distance to its drawn pose, after each step while measuring. */
  const patrolled: { x: number; dx: number; dy: number }[] = []
  const patrol = ENEMIES.findIndex((enemy) => enemy.patrol)
  const controls: Controls = { forward: 0, turn: 0, jump: false, attack: false }
  const { host, root } = openHost(800, 600)
  await act(async () =>
    root.render(
      <StrictMode>
        <PhysicsGame controls={controls}>
          <Probe />
        </PhysicsGame>
      </StrictMode>,
    ),
  )
  // rapier's wasm is in (the world exists), the models have loaded and each collider has been fitted: the
  // player's capsule on its kinematic body, one collider per enemy on no body (they follow their instances).
  const found = await findColliders(() => seen.world, ENEMIES.length)
  const w = seen.world!
  // Each enemy's collider stands where its instance does, its feet on the floor.
  const enemyAt = (id: number) =>
    found.enemies.find(
      (handle) => Math.hypot(boxOf(w, handle).x - ENEMIES[id]!.x, boxOf(w, handle).z - ENEMIES[id]!.z) < 0.5 + ENEMIES[id]!.patrol,
    )!
  // Those standing have their feet on the floor (a patrol runs: its feet leave it).
  for (const { id, patrol } of ENEMIES) {
    expect(enemyAt(id)).toBeDefined()
    if (!patrol) expect(Math.abs(boxOf(w, enemyAt(id)).minY)).toBeLessThan(0.1)
  }
  // The patrol moves (its instance placed every frame by the game) and its collider with it, on its drawn pose.
  seen.afterStep = (world, crowd) => {
    const box = crowd.getPoseBounds(patrol, new Box3())
    const centre = box.getCenter(new Vector3())
    const distance = (handle: number) => Math.abs(boxOf(world, handle).x - centre.x) + Math.abs(boxOf(world, handle).z - centre.z)
    const c = boxOf(
      world,
      found.enemies.reduce((a, b) => (distance(a) < distance(b) ? a : b)),
    )
    patrolled.push({
      x: centre.x,
      dx: Math.abs(c.x - centre.x),
      dy: Math.max(Math.abs(c.minY - box.min.y), Math.abs(c.maxY - box.max.y)),
    })
  }
  await vi.waitFor(() => expect(patrolled.length).toBeGreaterThan(90), { timeout: 30_000, interval: 100 })
  seen.afterStep = undefined
  const xs = patrolled.map(({ x }) => x)
  expect(Math.max(...xs) - Math.min(...xs)).toBeGreaterThan(0.15)
  // Its pose's height within a few centimetres of the drawn one's, its place within a frame's run of the drawn
  // one's (the game moves the instance in its useFrame, after the crowd took its place for the frame and, or
  // not, before rapier's step: the collider may be a frame ahead of what is drawn).
  const said = `off by up to ${Math.max(...patrolled.map(({ dx }) => dx)).toFixed(3)} m along x, ${Math.max(...patrolled.map(({ dy }) => dy)).toFixed(3)} m in height`
  // (Between two keyframes of the run the blended keyframes' box holds the drawn one, a few centimetres larger.)
  expect(Math.max(...patrolled.map(({ dy }) => dy)), said).toBeLessThan(0.1)
  expect(Math.max(...patrolled.map(({ dx }) => dx)), said).toBeLessThan(0.2)
  const start = boxOf(w, found.player)
  // The player's body starts where the game puts it.
  expect(w.getCollider(found.player).parent()!.translation().z).toBeCloseTo(3, 2)

  // A jump, clear of the enemies, leaves the floor and lands back on it.
  controls.jump = true
  await vi.waitFor(() => expect(boxOf(w, found.player).minY).toBeGreaterThan(0.2), { timeout: 20_000, interval: 50 })
  controls.jump = false
  // On the floor as the other checks say it (within 10 cm): the capsule rests on the controller's 1 cm skin and is
  // refitted to the pose only past a model unit (3.3 cm), so it may stay a few centimetres up after the landing pose.
  await vi.waitFor(() => expect(Math.abs(boxOf(w, found.player).minY)).toBeLessThan(0.1), { timeout: 20_000, interval: 100 })

  // Walk forward (towards −z, where enemy 0 stands) until the player stops moving.
  const stopped = await walkUntilStopped(w, found.player, controls)
  const enemy = boxOf(w, enemyAt(0))
  // It walked most of the way (3 m to the enemy's centre), and stopped on the floor at the enemy's box's face.
  expect(start.z - stopped.z).toBeGreaterThan(1.5)
  expectStoppedAtFace(stopped, enemy)
  // Held there: pushing on for a while more moves it no further.
  controls.forward = 1
  await frames(20)
  controls.forward = 0
  expect(boxOf(w, found.player).z).toBeGreaterThan(enemy.z + 0.5)

  // Shoot enemy 1 (clear of the player): it plays its death and its collider lies down with it.
  const shot = enemyAt(1)
  const standing = boxOf(w, shot)
  expect(standing.maxY).toBeGreaterThan(1.4)
  const canvas = host.querySelector('canvas')!
  await shootUntilFalling(w, canvas, () => onScreen(canvas, ENEMIES[1]!.x, 1.1, ENEMIES[1]!.z), shot, standing.maxY)
  await vi.waitFor(() => expect(boxOf(w, shot).maxY).toBeLessThan(0.6 * standing.maxY), { timeout: 20_000, interval: 200 })
  const lying = boxOf(w, shot)
  // Still where the enemy lies: on the floor, at its place.
  expect(Math.abs(lying.minY)).toBeLessThan(0.15)
  expect(Math.hypot(lying.x - ENEMIES[1]!.x, lying.z - ENEMIES[1]!.z)).toBeLessThan(1.5)
  // The others still stand.
  expect(boxOf(w, enemyAt(2)).maxY).toBeGreaterThan(1.4)
  await act(async () => root.unmount())
  host.remove()
}, 120_000)
