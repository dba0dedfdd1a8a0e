import { describe, expect, it } from 'vitest'
import { KeyframeClock } from '../../../src/core/animation/KeyframeClock.js'

describe('KeyframeClock', () => {
  it('a step of astronomically many keyframes ends, on the frame its last lap lands on', () => {
    const clock = new KeyframeClock(40)
    clock.play({ start: 0, end: 39, fps: 10 })
    const frames: number[] = []
    let loops = 0
    // 1e15 s at 10 fps: keyframes past 2^53, where counting them one by one never ends.
    expect(clock.advance(1e15, { onFrame: (frame) => frames.push(frame), onLoop: () => loops++ })).toBe(true)
    expect(frames.length).toBeLessThanOrEqual(41)
    expect(loops).toBeLessThanOrEqual(1)
    expect(Number.isFinite(clock.position)).toBe(true)
    expect(clock.position).toBeGreaterThanOrEqual(0)
    expect(clock.position).toBeLessThan(40)
    // 1e15 s is a whole number of laps at 10 fps over 40 frames: the playhead is where it started.
    expect(clock.frame).toBe(0)
  })

  it('a long hitch lands where stepping it frame by frame does', () => {
    const stepped = new KeyframeClock(40)
    const hitched = new KeyframeClock(40)
    for (const clock of [stepped, hitched]) clock.play({ start: 0, end: 39, fps: 10 })
    for (let i = 0; i < 1234; i++) stepped.advance(0.1)
    hitched.advance(123.4)
    expect(hitched.frame).toBeCloseTo(stepped.frame, 6)
  })

  it('a play-once animation given a huge step ends on its last frame, once', () => {
    const clock = new KeyframeClock(40)
    clock.play({ start: 10, end: 19, fps: 10 }, { loop: false })
    let ends = 0
    const frames: number[] = []
    clock.advance(1e300, { onEnd: () => ends++, onFrame: (frame) => frames.push(frame) })
    expect(ends).toBe(1)
    expect(clock.finished).toBe(true)
    expect(clock.frame).toBe(19)
    expect(frames).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19])
  })
})
