/**
 * `groundGrace` against rapier itself: a kinematic capsule carried by rapier's character controller over flat
 * ground, stepped at 60 Hz the way docs/physics.md's recipe (examples/snippets/physics-game.tsx) does, its
 * `computedGrounded()` fed to a `PlayerAnimationController` each frame.
 */
import RAPIER from '@dimforge/rapier3d-compat'
import { beforeAll, describe, expect, it } from 'vitest'
import { PlayerAnimationController } from '../../../src/core/index'

const STEP = 1 / 60
// The recipe's figures (metres, seconds): a 1.7 m player, running at 4 m/s under rapier's default gravity.
const HEIGHT = 1.7
const RADIUS = 0.35
const SPEED = 4
const GRAVITY = 9.81
/** Upward speed of a jump about half a second in the air (2 × speed / gravity). */
const JUMP = 2.5

beforeAll(async () => {
  await RAPIER.init()
})

/** What one run of the world gave: rapier's grounding each frame, and the animations shown, each once in order. */
interface Played {
  grounded: boolean[]
  shown: string[]
}

/**
 * Stands the player on the ground for `standFrames`, then runs it for `runFrames`, jumping at `jumpFrame` (a frame
 * of the run) when given: the recipe's frame (fall from the last grounding, `computeColliderMovement`, the body
 * moved by `computedMovement`) with a world step after it, as `<Physics>` steps its world.
 */
function play(player: PlayerAnimationController, standFrames: number, runFrames: number, jumpFrame = -1): Played {
  const world = new RAPIER.World({ x: 0, y: -GRAVITY, z: 0 })
  world.timestep = STEP
  // Flat ground, its top at y = 0.
  world.createCollider(RAPIER.ColliderDesc.cuboid(50, 0.5, 50).setTranslation(0, -0.5, 0))
  const body = world.createRigidBody(RAPIER.RigidBodyDesc.kinematicPositionBased().setTranslation(0, HEIGHT / 2, 0))
  const collider = world.createCollider(RAPIER.ColliderDesc.capsule(HEIGHT / 2 - RADIUS, RADIUS), body)
  const character = world.createCharacterController(0.01)
  character.enableSnapToGround(0.3)
  const grounded: boolean[] = []
  const shown: string[] = []
  let fall = 0
  let jumpHeld = false
  try {
    for (let frame = 0; frame < standFrames + runFrames; frame++) {
      const running = frame >= standFrames
      // The jump key held from its frame until the controller next reports the ground (the recipe's `controls.jump`).
      if (running && frame - standFrames === jumpFrame) jumpHeld = true
      const wasGrounded = character.computedGrounded()
      fall = wasGrounded && jumpHeld ? JUMP : wasGrounded ? 0 : fall - GRAVITY * STEP
      if (wasGrounded) jumpHeld = false
      const run = running ? SPEED * STEP : 0
      character.computeColliderMovement(collider, { x: run, y: fall * STEP, z: 0 })
      const moved = character.computedMovement()
      const at = body.translation()
      body.setNextKinematicTranslation({ x: at.x + moved.x, y: at.y + moved.y, z: at.z + moved.z })
      player.input.moving = Math.hypot(moved.x, moved.z) > 0.2 * SPEED * STEP
      player.input.onGround = character.computedGrounded()
      grounded.push(player.input.onGround)
      player.update(STEP)
      const name = player.animation.name
      if (shown.at(-1) !== name) shown.push(name)
      world.step()
    }
  } finally {
    world.removeCharacterController(character)
    world.free()
  }
  return { grounded, shown }
}

/** rapier's grounding as a string, 1 grounded, 0 not: what the console shows. */
function pattern(grounded: boolean[]): string {
  return grounded.map((on) => (on ? '1' : '0')).join('')
}

describe('groundGrace with rapier’s character controller', () => {
  const STAND = 30
  const RUN = 60

  it('plays no jump as a run starts on flat ground, though rapier’s grounding drops every other frame', () => {
    const player = new PlayerAnimationController()
    const { grounded, shown } = play(player, STAND, RUN)
    const runStart = grounded.slice(STAND, STAND + 30)
    const dropped = runStart.filter((on) => !on).length
    console.log(
      `rapier ${RAPIER.version()}: computedGrounded() false on ${dropped} of the run's first 30 frames ` +
        `(${grounded.filter((on) => !on).length} of ${grounded.length} in all); stand | run: ` +
        `${pattern(grounded.slice(0, STAND))} | ${pattern(grounded.slice(STAND))}`,
    )
    // The recipe moves a grounded player by no fall: rapier then reports it ungrounded, the next frame grounded again.
    // The blip is there (else this test proves nothing)…
    expect(dropped).toBeGreaterThan(0)
    // …and never lasts the grace.
    let longest = 0
    let current = 0
    for (const on of grounded) longest = Math.max(longest, (current = on ? 0 : current + 1))
    expect(longest * STEP).toBeLessThan(player.groundGrace)
    expect(player.groundGrace).toBe(0.1)
    expect(shown).toEqual(['stand', 'run'])
  })

  it('without the grace (0, the input as it is) the same stand and run start play a jump', () => {
    // The 10 Hz ticks read the grounding every sixth frame: try each phase of the run start against them.
    const jumped = [0, 1, 2, 3, 4, 5].filter((phase) => {
      const player = new PlayerAnimationController()
      player.groundGrace = 0
      const { shown } = play(player, STAND + phase, RUN)
      return shown.includes('jump')
    })
    const standing = new PlayerAnimationController()
    standing.groundGrace = 0
    console.log(
      `groundGrace 0: a jump played for run-start phases ${jumped.join(', ')} of 0–5; ` +
        `standing alone: ${play(standing, STAND, 0).shown.join(', ')}`,
    )
    expect(jumped.length).toBeGreaterThan(0)
  })

  it('still plays a real jump, about half a second in the air, and the run again after it', () => {
    const player = new PlayerAnimationController()
    const { grounded, shown } = play(player, STAND, 120, 30)
    // rapier reports the flight: the longest run of ungrounded frames.
    let longest = 0
    let current = 0
    for (const on of grounded) longest = Math.max(longest, (current = on ? 0 : current + 1))
    console.log(`real jump: rapier ungrounded for ${longest} frames in a row (${(longest * STEP).toFixed(2)} s)`)
    expect(longest * STEP).toBeGreaterThan(0.4)
    expect(shown).toEqual(['stand', 'run', 'jump', 'run'])
  })
})
