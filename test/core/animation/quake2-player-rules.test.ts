import { describe, expect, it } from 'vitest'
import { QUAKE2_PLAYER_ANIMATIONS } from '../../../src/core/internal'
import {
  PLAYER_PRIORITY,
  createPlayerAnimationState,
  stepPlayerAnimation,
  type PlayerAnimationState,
  type PlayerInput,
} from '../../../src/core/animation/playerAnimation'

/** The player table by name (stand, run, attack, pain1…), the frames the rules must land on. */
const range = (name: string): [number, number] => {
  const animation = QUAKE2_PLAYER_ANIMATIONS.find((a) => a.name === name)!
  return [animation.start, animation.end]
}

/** Steps `count` server frames with the same input; returns the frames shown. */
function run(state: PlayerAnimationState, input: PlayerInput, count: number): number[] {
  const frames: number[] = []
  for (let i = 0; i < count; i++) {
    stepPlayerAnimation(state, { ...input })
    frames.push(state.frame)
  }
  return frames
}

const span = (first: number, last: number) => Array.from({ length: last - first + 1 }, (_, i) => first + i)

describe('Quake II player rules (G_SetClientFrame)', () => {
  it('stands, runs and crouches through the basic animations, looping each', () => {
    const state = createPlayerAnimationState()
    const [s0, s1] = range('stand')
    expect(run(state, {}, 41)).toEqual([...span(s0 + 1, s1), s0, s0 + 1])
    const [r0, r1] = range('run')
    expect(run(state, { moving: true }, 7)).toEqual([...span(r0, r1), r0])
    const [w0] = range('crouch_walk')
    expect(run(state, { moving: true, crouched: true }, 1)).toEqual([w0])
    const [c0] = range('crouch_stand')
    expect(run(state, { crouched: true }, 1)).toEqual([c0])
  })

  it('attack plays whole over running, then running resumes; crouched it is the crouch attack', () => {
    const state = createPlayerAnimationState()
    run(state, { moving: true }, 3)
    const [a0, a1] = range('attack')
    expect(run(state, { moving: true, firing: true }, 1)).toEqual([a0])
    expect(run(state, { moving: true }, 8)).toEqual([...span(a0 + 1, a1), range('run')[0]])
    // Crouching on the frame of a shot restarts the basic animation, as the game does; crouched first, it is the crouch attack.
    const [ca0] = range('crouch_attack')
    expect(run(state, { crouched: true, firing: true }, 1)).toEqual([range('crouch_stand')[0]])
    expect(run(state, { crouched: true, firing: true }, 1)).toEqual([ca0])
    expect(state.priority).toBe(PLAYER_PRIORITY.attack)
  })

  it('pain variants come in turn and do not interrupt an attack; attack interrupts pain', () => {
    const state = createPlayerAnimationState()
    const firsts = [range('pain2')[0], range('pain3')[0], range('pain1')[0], range('pain2')[0]]
    for (const first of firsts) {
      expect(run(state, { hurt: true }, 1)).toEqual([first])
      run(state, {}, 6)
    }
    run(state, { firing: true }, 1)
    expect(run(state, { hurt: true }, 1)).toEqual([range('attack')[0] + 1])
    run(state, {}, 10)
    run(state, { hurt: true }, 1)
    expect(run(state, { firing: true }, 1)).toEqual([range('attack')[0]])
  })

  it('jump holds its second frame in the air and lands with the rest of the jump', () => {
    const state = createPlayerAnimationState()
    const [j0, j1] = range('jump')
    expect(run(state, { onGround: false }, 4)).toEqual([j0, j0 + 1, j0 + 1, j0 + 1])
    expect(state.priority).toBe(PLAYER_PRIORITY.jump)
    // Landing plays jump3–jump6, then back to standing.
    expect(run(state, {}, 5)).toEqual([...span(j0 + 2, j1), range('stand')[0]])
  })

  it('gestures play whole but never crouched, nor over pain', () => {
    const state = createPlayerAnimationState()
    const [w0, w1] = range('wave')
    expect(run(state, { gesture: 'wave' }, 1)).toEqual([w0])
    expect(run(state, {}, w1 - w0 + 1)).toEqual([...span(w0 + 1, w1), range('stand')[0]])
    run(state, { crouched: true }, 2)
    expect(run(state, { crouched: true, gesture: 'salute' }, 1)).not.toEqual([range('salute')[0]])
    run(state, {}, 1)
    run(state, { hurt: true }, 1)
    expect(run(state, { gesture: 'point' }, 1)[0]).not.toBe(range('point')[0])
    // Moving while waving restarts the run only when the basic animation changes (waving is not basic).
    const fresh = createPlayerAnimationState()
    run(fresh, { gesture: 'taunt' }, 1)
    expect(run(fresh, { moving: true }, 1)).toEqual([range('taunt')[0] + 1])
  })

  it('death variants come in turn, hold their last frame, and crouched death is its own', () => {
    const state = createPlayerAnimationState()
    const [d0, d1] = range('death2')
    const frames = run(state, { dead: true }, 12)
    expect(frames).toEqual([...span(d0, d1), d1, d1, d1, d1, d1, d1])
    expect(run(state, { dead: true, firing: true, hurt: true, moving: true }, 2)).toEqual([d1, d1])
    run(state, {}, 2) // respawn
    expect(run(state, { dead: true }, 1)).toEqual([range('death3')[0]])
    run(state, {}, 2)
    const crouched = run(state, { dead: true, crouched: true }, 8)
    const [cd0, cd1] = range('crouch_death')
    expect(crouched).toEqual([...span(cd0, cd1), cd1, cd1, cd1])
  })

  it('a weapon change plays the pain frames backwards (crouched: the crouch pain frames)', () => {
    const state = createPlayerAnimationState()
    const [p0, p1] = range('pain3')
    expect(run(state, { weaponChange: true }, 1)).toEqual([p1])
    expect(run(state, {}, 4)).toEqual([p1 - 1, p1 - 2, p0, range('stand')[0]])
    const [c0, c1] = range('crouch_pain')
    run(state, { crouched: true }, 1)
    expect(run(state, { crouched: true, weaponChange: true }, 1)).toEqual([c1])
    expect(run(state, { crouched: true }, 3)).toEqual([c1 - 1, c1 - 2, c0])
  })
})
