import { useFrame, useThree } from '@react-three/fiber'
import { useEffect, useRef, type RefObject } from 'react'
import { MD2Model, MD2PoseBounds, MD2Quake2Lighting, useMD2, usePlayerAnimation, type MD2Crowd, type PlayerInput } from 'react-three-md2'
import type { Group, Mesh } from 'three'
import { placeCamera } from './camera'
import { touchedEnemy, updatePlayerBox } from './colliders'
import { aimAtNearest, shoot } from './combat'
import { animationAt, FOOTFALLS } from './keyframes'
import { useKeyboard } from './useKeyboard'
import { ARENA_RADIUS, FEET, OGRO, OGRO_WEAPON, type Player as PlayerState, type World } from './world'

/** Quake II's numbers, in its units (about an inch): run speed, jump speed, gravity. */
const RUN_SPEED = 300
const JUMP_SPEED = 270
const GRAVITY = 800
/** Radians a second the turn keys turn. */
const TURN_SPEED = 2.5
/** Seconds of one movement step (10 units at run speed, less than any box is deep). */
const STEP = 1 / 30
/** Seconds of a slow frame that are caught up: after a longer hitch the game has paused, not jumped. */
const MAX_CATCH_UP = 0.25

const held = (keys: ReadonlySet<string>, ...names: string[]) => names.some((name) => keys.has(name))

/**
 * Moves the player by the held keys and tells the animation rules what happened (moving, crouched,
 * on the ground). Returns how far it moved on the floor.
 */
function steer(player: PlayerState, keys: ReadonlySet<string>, input: PlayerInput, delta: number): { dx: number; dz: number } {
  const forward = held(keys, 'w', 'arrowup')
  const back = held(keys, 's', 'arrowdown')
  const turn = Number(held(keys, 'a', 'arrowleft')) - Number(held(keys, 'd', 'arrowright'))
  player.yaw += turn * TURN_SPEED * delta
  input.crouched = keys.has('c')
  input.moving = forward !== back
  // Quake II: crouched, a player moves at half speed; backwards here a little slower than forwards.
  const speed = (forward === back ? 0 : forward ? 1 : -0.6) * RUN_SPEED * (input.crouched ? 0.5 : 1)
  player.velocity -= GRAVITY * delta
  player.height = Math.max(0, player.height + player.velocity * delta)
  if (player.height === 0) player.velocity = 0
  input.onGround = player.height === 0
  return { dx: Math.sin(player.yaw) * speed * delta, dz: Math.cos(player.yaw) * speed * delta }
}

/**
 * The ogro you play: the keyboard moves it, Quake II's player rules (`usePlayerAnimation`) animate
 * it, the camera follows it, and Space, C, F and a click jump, crouch and shoot; T aims at the
 * nearest enemy still standing. Keys come from the window, or from `keyTarget` while it has the focus.
 */
export function Player({ world, crowd, keyTarget }: { world: World; crowd: MD2Crowd; keyTarget?: RefObject<HTMLElement | null> }) {
  const model = useMD2(OGRO)
  // The rules' frame moves at 10 Hz, one keyframe a tick: each run keyframe where a foot lands is a footstep.
  const animation = usePlayerAnimation(model, {
    crossfade: 0.1,
    onFrame: (frame) => {
      if (FOOTFALLS.has(frame)) world.footsteps++
    },
  })
  const root = useRef<Group>(null)
  const { held: keys, pressed } = useKeyboard(keyTarget)
  const camera = useThree((state) => state.camera)
  const canvas = useThree((state) => state.gl.domElement)

  useEffect(() => {
    const click = (event: PointerEvent) => event.button === 0 && pressed.current.push('f')
    canvas.addEventListener('pointerdown', click)
    return () => canvas.removeEventListener('pointerdown', click)
  }, [canvas, pressed])

  useFrame((_, delta) => {
    const group = root.current
    const mesh = group?.children[0] as Mesh | undefined
    if (!group || !mesh) return
    const player = world.player
    const input = animation.input
    const presses = takePresses(pressed.current)
    for (const key of presses) {
      if (key === ' ' && player.height === 0) player.velocity = JUMP_SPEED
      else if (key === 'f') input.firing = true
      else if (key === 't') aimAtNearest(world, crowd)
    }
    // Fixed small steps: a slow frame neither runs the player through an enemy nor swallows a jump.
    for (let left = Math.min(delta, MAX_CATCH_UP); left > 0; left -= STEP) {
      move(world, crowd, group, mesh, steer(player, keys.current, input, Math.min(STEP, left)))
    }

    placeCamera(camera, player)
    // Shots after the camera has moved: the crosshair is where the player sees it.
    for (const key of presses) if (key === 'f') shoot(world, crowd, camera)

    player.animation = animationAt(model, animation.state.frame)
  })

  return (
    <MD2Model ref={root} model={model} controller={animation}>
      <MD2PoseBounds />
      <MD2Quake2Lighting shadelight={0.9} />
      {/* The weapon shows the body's frames (sync), as Quake II draws a player's weapon model. */}
      <MD2Model url={OGRO_WEAPON} sync>
        <MD2Quake2Lighting shadelight={0.9} />
      </MD2Model>
    </MD2Model>
  )
}

/**
 * This frame's key presses, in order, taken from the queue: up to and with the first T. The crowd's
 * raycast tests the enemies drawn in its last update (those in the camera's view), so after the aim
 * jumps a shot waits one frame, for a frame drawn with the new aim; the rest stay queued.
 */
function takePresses(queue: string[]): string[] {
  const aim = queue.indexOf('t')
  return queue.splice(0, aim < 0 ? queue.length : aim + 1)
}

/**
 * Moves the player on the floor by (dx, dz), within the arena, unless that walks it into a standing
 * enemy's pose box (moving away from one it already touches is allowed), and updates its collider.
 */
function move(world: World, crowd: MD2Crowd, group: Group, mesh: Mesh, { dx, dz }: { dx: number; dz: number }): void {
  const player = world.player
  const { x, z } = player.position
  const before = touchedEnemy(world, crowd)
  player.position.set(x + dx, player.height - FEET, z + dz)
  const out = Math.hypot(player.position.x, player.position.z) / ARENA_RADIUS
  if (out > 1) player.position.set(player.position.x / out, player.position.y, player.position.z / out)
  group.position.copy(player.position)
  group.rotation.y = player.yaw
  updatePlayerBox(world, mesh)
  const hit = touchedEnemy(world, crowd)
  if (hit >= 0 && (hit !== before || closer(world, hit, x, z))) {
    player.position.set(x, player.position.y, z)
    group.position.copy(player.position)
    updatePlayerBox(world, mesh)
    world.blocked++
    world.blockedBy = hit
  }
}

/** Whether the player's move (from x, z) brought it nearer enemy `i`. */
function closer(world: World, i: number, x: number, z: number): boolean {
  const enemy = world.enemies[i]!.position
  const { position } = world.player
  return Math.hypot(enemy.x - position.x, enemy.z - position.z) < Math.hypot(enemy.x - x, enemy.z - z)
}
