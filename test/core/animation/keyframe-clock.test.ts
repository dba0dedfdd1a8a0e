import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { advanceAnimation, createAnimationState, holdFrame, setAnimation } from '../../../src/core/internal'

const RUN = { start: 40, end: 45, fps: 10 }

describe('the animation state machine', () => {
  it('starts on the first frame heading to the second', () => {
    const state = createAnimationState(RUN)
    expect(state).toMatchObject({ currentFrame: 40, nextFrame: 41, interpolation: 0, finished: false })
  })

  it('interpolates within a keyframe, then steps', () => {
    const state = createAnimationState(RUN)
    advanceAnimation(state, 0.05)
    expect(state.currentFrame).toBe(40)
    expect(state.interpolation).toBeCloseTo(0.5, 10)
    advanceAnimation(state, 0.05)
    expect(state.currentFrame).toBe(41)
    expect(state.nextFrame).toBe(42)
    expect(state.interpolation).toBeCloseTo(0, 10)
  })

  it('a long frame advances by every keyframe it covers (the tutorial advanced one at most)', () => {
    const state = createAnimationState(RUN)
    advanceAnimation(state, 0.83) // 8.3 keyframes over a 6-frame loop: 40 + 8 mod 6 = 42
    expect(state.currentFrame).toBe(42)
    expect(state.nextFrame).toBe(43)
    expect(state.interpolation).toBeCloseTo(0.3, 6)
  })

  it('an hour in a background tab lands on the right frame with interpolation in [0, 1)', () => {
    const state = createAnimationState(RUN)
    advanceAnimation(state, 3600.05) // 36000.5 keyframes: 36000 mod 6 = 0
    expect(state.currentFrame).toBe(40)
    expect(state.interpolation).toBeCloseTo(0.5, 4)
  })

  it('loops from the last frame back to the first, blending end → start', () => {
    const state = createAnimationState(RUN)
    advanceAnimation(state, 0.5)
    expect(state.currentFrame).toBe(45)
    expect(state.nextFrame).toBe(40)
    advanceAnimation(state, 0.1)
    expect(state.currentFrame).toBe(40)
  })

  it('plays once: stops on the last frame and reports the end exactly once', () => {
    const state = createAnimationState(RUN, false)
    expect(advanceAnimation(state, 0.3)).toBe(false)
    expect(state.currentFrame).toBe(43)
    expect(advanceAnimation(state, 5)).toBe(true)
    expect(state).toMatchObject({ currentFrame: 45, nextFrame: 45, interpolation: 0, finished: true })
    expect(advanceAnimation(state, 1)).toBe(false)
    expect(state.currentFrame).toBe(45)
  })

  it('play-once never blends past the end into the first frame', () => {
    const state = createAnimationState(RUN, false)
    advanceAnimation(state, 0.45)
    expect(state.currentFrame).toBe(44)
    expect(state.nextFrame).toBe(45)
  })

  it('ignores zero, negative and non-finite deltas', () => {
    const state = createAnimationState(RUN)
    for (const delta of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) advanceAnimation(state, delta)
    expect(state).toMatchObject({ currentFrame: 40, interpolation: 0, elapsed: 0 })
  })

  it('speed scales time; fps 0 holds still', () => {
    const fast = createAnimationState(RUN)
    advanceAnimation(fast, 0.1, 2)
    expect(fast.currentFrame).toBe(42)
    const still = createAnimationState({ start: 3, end: 9, fps: 0 })
    advanceAnimation(still, 10)
    expect(still.currentFrame).toBe(3)
  })

  it('a one-frame animation stays put with no blending', () => {
    const state = createAnimationState({ start: 198, end: 198 })
    advanceAnimation(state, 0.37)
    expect(state).toMatchObject({ currentFrame: 198, nextFrame: 198, interpolation: 0 })
  })

  it('setAnimation restarts in place; holdFrame shows one frame still', () => {
    const state = createAnimationState(RUN)
    advanceAnimation(state, 0.27)
    setAnimation(state, { start: 0, end: 39, fps: 5 })
    expect(state).toMatchObject({ start: 0, end: 39, fps: 5, currentFrame: 0, nextFrame: 1, interpolation: 0, elapsed: 0 })
    holdFrame(state, 17)
    expect(state).toMatchObject({ currentFrame: 17, nextFrame: 17, interpolation: 0 })
  })

  it('property: any sequence of deltas keeps frames in range and interpolation in [0, 1)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 0, max: 40 }),
        fc.boolean(),
        fc.array(fc.double({ min: -1, max: 100, noNaN: true }), { maxLength: 50 }),
        (start, length, loop, deltas) => {
          const state = createAnimationState({ start, end: start + length, fps: 10 }, loop)
          for (const delta of deltas) {
            advanceAnimation(state, delta)
            expect(state.currentFrame).toBeGreaterThanOrEqual(start)
            expect(state.currentFrame).toBeLessThanOrEqual(start + length)
            expect(state.nextFrame).toBeGreaterThanOrEqual(start)
            expect(state.nextFrame).toBeLessThanOrEqual(start + length)
            expect(state.interpolation).toBeGreaterThanOrEqual(0)
            expect(state.interpolation).toBeLessThan(1)
          }
        },
      ),
      { seed: 20261121, numRuns: 300 },
    )
  })

  it('property: advancing in many small steps equals one big step (time-correct)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 30 }), (pieces, fps) => {
        const whole = createAnimationState({ start: 0, end: 11, fps })
        const split = createAnimationState({ start: 0, end: 11, fps })
        const total = 1.37
        advanceAnimation(whole, total)
        for (let i = 0; i < pieces; i++) advanceAnimation(split, total / pieces)
        const phase = (s: typeof whole) => s.currentFrame + s.interpolation
        // Equal up to float rounding at a keyframe boundary (which can wrap 11.999… ↔ 0).
        const diff = Math.abs(phase(whole) - phase(split))
        expect(Math.min(diff, 12 - diff)).toBeLessThan(1e-6)
      }),
      { seed: 7, numRuns: 200 },
    )
  })
})
