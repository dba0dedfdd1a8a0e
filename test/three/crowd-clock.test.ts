/**
 * The crowd's clock keeps each instance as a stored row (what changes only when it is told) and computes
 * poses from the crowd's time when asked; its events come from a schedule of next keyframe times. Checked
 * against the clock it replaced, which stepped every instance every frame: the same poses and the same
 * events, per instance in order, through thousands of frames with listeners among many instances.
 */
import { describe, expect, it } from 'vitest'
import { CROWD_POSE_STRIDE, CrowdClock } from '../../src/core/animation/CrowdClock'
import { EventSchedule } from '../../src/core/animation/EventSchedule'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { readAsset } from '../support/assets'
import { SteppedCrowdClock } from '../support/steppedCrowdClock'

const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2').slice(), { name: 'ogro/tris.MD2' })

/** A small deterministic generator (the same run every time). */
function random(seed: number): () => number {
  let s = seed >>> 0
  return () => (s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32
}

describe('CrowdClock (stored rows)', () => {
  it('reports the events and shows the poses the stepped clock did, through 3,000 frames of 2,000 instances, 1 in 10 listened', () => {
    const n = 2000
    const frames = ogro.header.numFrames
    const clock = new CrowdClock(n, frames)
    const stepped = new SteppedCrowdClock(n, frames)
    const listened = (i: number) => i % 10 === 3
    const heard = { clock: new Map<number, string[]>(), stepped: new Map<number, string[]>() }
    const listen = (into: Map<number, string[]>) => {
      const push = (i: number, what: string) => {
        if (!listened(i)) return
        if (!into.has(i)) into.set(i, [])
        into.get(i)!.push(what)
      }
      return {
        onFrame: (i: number, frame: number) => push(i, `frame ${frame}`),
        onLoop: (i: number) => push(i, 'loop'),
        onEnd: (i: number) => push(i, 'end'),
      }
    }
    clock.events = listen(heard.clock)
    stepped.events = listen(heard.stepped)
    const next = random(44)
    const animations = ogro.animations
    const both = <A extends unknown[]>(f: (c: CrowdClock | SteppedCrowdClock, ...a: A) => void, ...a: A) => {
      f(clock, ...a)
      f(stepped, ...a)
    }
    for (let i = 0; i < n; i++) both((c) => c.play(i, animations[i % animations.length]!, { loop: i % 4 !== 0 }))
    let compared = 0
    for (let frame = 0; frame < 3000; frame++) {
      // Some instances are told something each frame: a play (looping or once, reversed, faster, faded), a pause, a still frame.
      for (let k = 0; k < 20; k++) {
        const i = Math.floor(next() * n)
        const what = next()
        const range = animations[Math.floor(next() * animations.length)]!
        if (what < 0.6)
          both((c) =>
            c.play(i, range, { loop: i % 3 !== 0, reverse: i % 7 === 0, speed: [0.5, 1, 2][i % 3], crossfade: i % 5 === 0 ? 0.25 : 0 }),
          )
        else if (what < 0.7) both((c) => c.pause(i))
        else if (what < 0.8) both((c) => c.resume(i))
        else if (what < 0.85) both((c) => c.showFrame(i, 40.5))
        else if (what < 0.9) both((c) => c.release(i))
        else if (what < 0.95) both((c) => c.setRate(i, 10, 1.5))
        else both((c) => c.stop(i))
      }
      // Steps of 1/64 s or 1/32 s (both clocks' sums exact), now and then a hitch of a second.
      const seconds = frame % 500 === 499 ? 1 : (1 + (frame % 2)) / 64
      clock.advance(seconds, n)
      stepped.advance(seconds, n)
      if (frame % 97 === 0) {
        for (let i = 0; i < n; i += 13) {
          const o = clock.pose(i)
          const s = i * CROWD_POSE_STRIDE
          expect([clock.poses[o], clock.poses[o + 1], clock.poses[o + 2]]).toEqual([
            stepped.poses[s],
            stepped.poses[s + 1],
            stepped.poses[s + 2],
          ])
          expect(clock.poses[o + 3]).toBeCloseTo(stepped.poses[s + 3]!, 12)
          expect(clock.isPlaying(i)).toBe(stepped.isPlaying(i))
          compared++
        }
      }
    }
    expect(compared).toBeGreaterThan(4000)
    const heardOf = (m: Map<number, string[]>) => [...m.entries()].sort((a, b) => a[0] - b[0])
    expect(heard.clock.size).toBe(n / 10)
    expect(heardOf(heard.clock)).toEqual(heardOf(heard.stepped))
    // Thousands of events each, not a few.
    expect([...heard.clock.values()].reduce((sum, e) => sum + e.length, 0)).toBeGreaterThan(30_000)
  })

  it('moves the time on without visiting an instance: advance writes no pose and marks no row', () => {
    const n = 20_000
    const clock = new CrowdClock(n, ogro.header.numFrames)
    for (let i = 0; i < n; i++) clock.play(i, ogro.animations[1]!)
    clock.clearChanged()
    const before = clock.poses.slice()
    for (let f = 0; f < 600; f++) clock.advance(1 / 60, n)
    expect(clock.changedCount).toBe(0)
    // The stored poses are only those computed when asked: none was.
    expect(clock.poses).toEqual(before)
    // Asked, instance 5 has moved on 600 frames at 10 fps: 100 keyframes round a 6-frame run.
    const o = clock.pose(5)
    expect(clock.poses[o]).toBe(ogro.animations[1]!.start + (100 % 6))
    // Playing one instance marks that row alone.
    clock.play(77, ogro.animations[2]!)
    expect([clock.changedCount, clock.changed[0]]).toEqual([1, 77])
  })
})

describe('EventSchedule', () => {
  it('gives slots back earliest first, after any sets, moves and removals', () => {
    const schedule = new EventSchedule(500)
    const next = random(7)
    const want = new Map<number, number>()
    for (let k = 0; k < 3000; k++) {
      const slot = Math.floor(next() * 500)
      if (next() < 0.2) {
        schedule.remove(slot)
        want.delete(slot)
      } else {
        const time = Math.floor(next() * 1000)
        schedule.set(slot, time)
        want.set(slot, time)
      }
    }
    const out: number[] = []
    while (schedule.size > 0) {
      const time = schedule.nextTime()
      const slot = schedule.pop()
      expect(want.get(slot)).toBe(time)
      out.push(time)
    }
    expect(out.length).toBe(want.size)
    expect(out).toEqual([...want.values()].sort((a, b) => a - b))
  })
})
