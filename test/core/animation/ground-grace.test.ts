import { describe, expect, it } from 'vitest'
import { PlayerAnimationController } from '../../../src/core/index'

const FRAME = 1 / 60

/**
 * Runs a player from standing at 60 frames a second for `seconds`, its grounding false on the frames `air` says
 * (by frame index); returns the animations shown, in order, each once.
 */
function play(controller: PlayerAnimationController, seconds: number, air: (frame: number) => boolean): string[] {
  const shown: string[] = []
  controller.input.moving = true
  for (let frame = 0; frame < Math.round(seconds / FRAME); frame++) {
    controller.input.onGround = !air(frame)
    controller.update(FRAME)
    const name = controller.animation.name
    if (shown.at(-1) !== name) shown.push(name)
  }
  return shown
}

describe('PlayerAnimationController groundGrace', () => {
  // rapier's computedGrounded() is false for one frame as a run starts: whichever frame of a tick it falls on.
  it('plays no jump for a one-frame drop of grounding, wherever it falls against the 10 Hz ticks', () => {
    for (let blip = 0; blip < 6; blip++) {
      const controller = new PlayerAnimationController()
      expect(play(controller, 1, (frame) => frame === 6 + blip)).toEqual(['stand', 'run'])
    }
  })

  it('without it (0, Quake II reading the input as it is) the same drop plays a jump for one of those frames', () => {
    const jumped = [0, 1, 2, 3, 4, 5].filter((blip) => {
      const controller = new PlayerAnimationController()
      controller.groundGrace = 0
      return play(controller, 1, (frame) => frame === 6 + blip).includes('jump')
    })
    expect(jumped.length).toBeGreaterThan(0)
  })

  it('still plays a real jump, starting at most a tick after the grace', () => {
    const controller = new PlayerAnimationController()
    let started = -1
    controller.input.moving = true
    for (let frame = 0; frame < 90; frame++) {
      controller.input.onGround = !(frame >= 12 && frame < 42)
      controller.update(FRAME)
      if (started < 0 && controller.animation.name === 'jump') started = frame
    }
    expect(controller.groundGrace).toBe(0.1)
    const late = (started - 12) * FRAME
    expect(late).toBeGreaterThanOrEqual(0.1 - 1e-9)
    expect(late).toBeLessThanOrEqual(0.2 + FRAME)
    // Landed: the rest of the jump, then the run again.
    expect(controller.animation.name).toBe('run')
  })
})
