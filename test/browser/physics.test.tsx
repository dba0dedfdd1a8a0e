/**
 * The physics recipe (examples/snippets/physics-game.tsx) played in Chromium under <StrictMode>, rapier's
 * WebAssembly loaded from its package (no network): rapier's character controller walks the Ogro on a rapier
 * floor and stops at an enemy's <MD2Collider>; a shot enemy falls, and its collider lies down with it.
 */
import { useThree } from '@react-three/fiber'
import { useRapier } from '@react-three/rapier'
import { StrictMode, act } from 'react'
import { Vector3, type Camera } from 'three'
import { afterEach, expect, test, vi } from 'vitest'
import { userEvent } from 'vitest/browser'
import PhysicsGame, { ENEMIES, type Controls } from '../../examples/snippets/physics-game'
import { openHost } from './canvas'

afterEach(() => {
  vi.restoreAllMocks()
})

/** rapier's world, as @react-three/rapier has it (its own copy of rapier, not another package's). */
type World = ReturnType<typeof useRapier>['world']

const frames = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => requestAnimationFrame(resolve))
}

/** The world's box of a collider (a cuboid or an upright capsule) placed in it, as rapier has it now. */
function boxOf(world: World, handle: number) {
  const collider = world.getCollider(handle)
  const at = collider.translation()
  const half =
    collider.shapeType() === 1
      ? collider.halfExtents()
      : { x: collider.radius(), y: collider.halfHeight() + collider.radius(), z: collider.radius() }
  return { x: at.x, y: at.y, z: at.z, minY: at.y - half.y, maxY: at.y + half.y, halfX: half.x, halfZ: half.z }
}

test('the player walks on a rapier floor and stops at an enemy; a shot enemy falls and its collider with it', async () => {
  // The game's /players/ogro/ is this repository's ogro folder.
  const served = globalThis.fetch.bind(globalThis)
  vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) =>
    served(String(input).replace('/players/ogro/', '/assets/quake2/ogro/'), init),
  )
  let world: World | undefined
  let camera: Camera | undefined
  function Probe() {
    world = useRapier().world
    camera = useThree((state) => state.camera)
    return null
  }
  /** Where the game's camera shows a world point, in its canvas's pixels. */
  const onScreen = (x: number, y: number, z: number) => {
    const point = new Vector3(x, y, z).project(camera!)
    const { clientWidth, clientHeight } = host.querySelector('canvas')!
    return { x: Math.round(((point.x + 1) / 2) * clientWidth), y: Math.round(((1 - point.y) / 2) * clientHeight) }
  }
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
  const found = await vi.waitFor(
    () => {
      expect(world).toBeDefined()
      let player: number | undefined
      const enemies: number[] = []
      world!.forEachCollider((collider) => {
        const body = collider.parent()
        if (body?.isKinematic()) player = collider.handle
        else if (!body) enemies.push(collider.handle)
      })
      expect(player).toBeDefined()
      expect(enemies).toHaveLength(ENEMIES.length)
      // Fitted to the Ogro standing (the game's 1.7 m; the pose's box a little taller than the standing frame's),
      // no longer the unit shapes they are made at (2 m tall).
      for (const handle of [player!, ...enemies]) {
        const { minY, maxY } = boxOf(world!, handle)
        expect(maxY - minY).toBeGreaterThan(1.6)
        expect(maxY - minY).toBeLessThan(1.9)
      }
      return { player: player!, enemies }
    },
    { timeout: 60_000, interval: 200 },
  )
  const w = world!
  // Each enemy's collider stands where its instance does, its feet on the floor.
  const enemyAt = (id: number) =>
    found.enemies.find((handle) => Math.hypot(boxOf(w, handle).x - ENEMIES[id]!.x, boxOf(w, handle).z - ENEMIES[id]!.z) < 0.5)!
  for (const { id } of ENEMIES) {
    expect(enemyAt(id)).toBeDefined()
    expect(Math.abs(boxOf(w, enemyAt(id)).minY)).toBeLessThan(0.1)
  }
  const start = boxOf(w, found.player)
  // The player's body starts where the game puts it.
  expect(w.getCollider(found.player).parent()!.translation().z).toBeCloseTo(3, 2)

  // A jump, clear of the enemies, leaves the floor and lands back on it.
  controls.jump = true
  await vi.waitFor(() => expect(boxOf(w, found.player).minY).toBeGreaterThan(0.2), { timeout: 20_000, interval: 50 })
  controls.jump = false
  await vi.waitFor(() => expect(Math.abs(boxOf(w, found.player).minY)).toBeLessThan(0.05), { timeout: 20_000, interval: 100 })

  // Walk forward (towards −z, where enemy 0 stands) until the player stops moving.
  controls.forward = 1
  let last = Infinity
  for (let tries = 0; tries < 30; tries++) {
    await frames(10)
    const now = boxOf(w, found.player).z
    if (Math.abs(now - last) < 1e-3) break
    last = now
  }
  controls.forward = 0
  const stopped = boxOf(w, found.player)
  const enemy = boxOf(w, enemyAt(0))
  // It walked most of the way (3 m to the enemy's centre)…
  expect(start.z - stopped.z).toBeGreaterThan(1.5)
  // …on the floor: its capsule's bottom on it, not sunk through nor in the air…
  expect(Math.abs(stopped.minY)).toBeLessThan(0.1)
  // …and stopped short of the enemy: its capsule's front at the enemy's box's face (the enemy breathes as it
  // stands: its box is refitted when it has moved by a model unit, 3 cm here).
  const gap = stopped.z - stopped.halfZ - (enemy.z + enemy.halfZ)
  expect(gap).toBeGreaterThan(-0.04)
  expect(gap).toBeLessThan(0.15)
  // Its body in front of the enemy's, by more than the enemy's half-depth: it did not pass into it.
  expect(stopped.z).toBeGreaterThan(enemy.z + enemy.halfZ + 0.3)
  // Held there: pushing on for a while more moves it no further.
  controls.forward = 1
  await frames(20)
  controls.forward = 0
  expect(boxOf(w, found.player).z).toBeGreaterThan(enemy.z + enemy.halfZ + 0.3)

  // Shoot enemy 1 (clear of the player): it plays its death and its collider lies down with it.
  const shot = enemyAt(1)
  const standing = boxOf(w, shot)
  expect(standing.maxY).toBeGreaterThan(1.4)
  const canvas = host.querySelector('canvas')!
  await vi.waitFor(
    async () => {
      await userEvent.click(canvas, { position: onScreen(ENEMIES[1]!.x, 1.1, ENEMIES[1]!.z) })
      await frames(5)
      expect(boxOf(w, shot).maxY).toBeLessThan(standing.maxY - 0.1)
    },
    { timeout: 30_000, interval: 500 },
  )
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
