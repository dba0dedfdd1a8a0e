/**
 * The GPU crowd's CPU side: its typed-array animation follows KeyframeClock's rules pose for pose,
 * it culls instance by instance and uploads only the instances in view, raycasts report the instance
 * hit against its animated triangles, its frame texture is the file's own vertex bytes, and a frame of
 * 10,000 instances allocates nothing.
 */
import fc from 'fast-check'
import { Box3, Matrix4, Quaternion, Raycaster, Vector2, Vector3 } from 'three'
import { describe, expect, it } from 'vitest'
import { KeyframeClock } from '../../src/core/animation/KeyframeClock'
import { CrowdClock } from '../../src/core/animation/CrowdClock'
import { decodeFrame } from '../../src/core/format/decodeFrame'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import { ROW_HIDDEN, ROW_LOOP, ROW_POSED } from '../../src/three/crowd/gpu/instanceRows'
import { readAsset } from '../support/assets'
import { crowdCamera } from '../support/cameras'
import { bytesPerCall, settled } from '../support/alloc'
import { expectMD2Error } from '../support/errors'
import { manyFrameModel } from '../support/many-frames'
import { SteppedCrowdClock } from '../support/steppedCrowdClock'

const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2').slice(), { name: 'ogro/tris.MD2' })
const soldier = parseMD2(readAsset('ufoai/soldier-male/body.md2').slice(), { name: 'soldier/body.md2' })

describe('CrowdAnimation', () => {
  it('writes the poses and reports the events KeyframeClock does, for any sequence of plays, still frames and time steps', () => {
    const frames = ogro.header.numFrames
    const range = fc.record({
      start: fc.integer({ min: 0, max: frames - 1 }),
      end: fc.integer({ min: 0, max: frames - 1 }),
      fps: fc.constantFrom(5, 10, 24),
    })
    const command = fc.oneof(
      fc.record({
        kind: fc.constant('play' as const),
        range,
        loop: fc.boolean(),
        reverse: fc.boolean(),
        speed: fc.constantFrom(0.5, 1, 2),
        crossfade: fc.constantFrom(0, 0.2, 1),
      }),
      // Steps of 1/64 s: the crowd's clock multiplies the time since a play by the rate where KeyframeClock
      // adds each step's share, and on these the two sums are exact, so keyframe boundaries fall alike.
      fc.record({ kind: fc.constant('advance' as const), seconds: fc.integer({ min: 0, max: 192 }).map((k) => k / 64) }),
      fc.record({ kind: fc.constant('still' as const), frame: fc.double({ min: -2, max: frames + 2, noNaN: true }) }),
      fc.record({ kind: fc.constant('pause' as const) }),
      fc.record({ kind: fc.constant('resume' as const) }),
    )
    fc.assert(
      fc.property(fc.array(command, { minLength: 1, maxLength: 25 }), (commands) => {
        const player = new KeyframeClock(frames)
        const crowd = new CrowdClock(3, frames)
        const i = 1
        // The events each reports, in order: keyframes reached, loops, ends.
        const heard: { player: string[]; crowd: string[] } = { player: [], crowd: [] }
        const events = {
          onFrame: (frame: number) => heard.player.push(`frame ${frame}`),
          onLoop: () => heard.player.push('loop'),
          onEnd: () => heard.player.push('end'),
        }
        // The other slots play too (their own events are theirs).
        crowd.events = {
          onFrame: (at, frame) => void (at === i && heard.crowd.push(`frame ${frame}`)),
          onLoop: (at) => void (at === i && heard.crowd.push('loop')),
          onEnd: (at) => void (at === i && heard.crowd.push('end')),
        }
        for (const c of commands) {
          if (c.kind === 'play') {
            player.play(c.range, c)
            crowd.play(i, c.range, c)
          } else if (c.kind === 'advance') {
            player.advance(c.seconds, events)
            crowd.advance(c.seconds)
            expect(heard.crowd).toEqual(heard.player)
          } else if (c.kind === 'still') {
            player.showFrame(c.frame)
            crowd.showFrame(i, c.frame)
          } else if (c.kind === 'pause') {
            player.pause()
            crowd.pause(i)
          } else {
            player.resume()
            crowd.resume(i)
          }
          const p = crowd.poses.subarray(crowd.pose(i))
          const want = player.pose
          expect([p[0], p[1], p[2]]).toEqual([want.from, want.to, want.t])
          // The crossfade's weight from the time since it began, not a sum of steps: equal to rounding.
          expect(p[3]).toBeCloseTo(want.fadeWeight, 12)
          if (want.fadeWeight > 0) expect([p[4], p[5], p[6]]).toEqual([want.fadeFrom, want.fadeTo, want.fadeT])
        }
      }),
      { numRuns: 300 },
    )
  })
})

describe('MD2Crowd events', () => {
  it('reports keyframes, loops and ends per instance through crowd.events, in order, at any frame rate', () => {
    const crowd = new MD2Crowd(ogro, { limit: 2, maxTextureSize: 4096 })
    const heard: string[] = []
    crowd.events = {
      onFrame: (i, frame) => heard.push(`${i}:${frame}`),
      onLoop: (i) => heard.push(`${i}:loop`),
      onEnd: (i) => heard.push(`${i}:end`),
    }
    crowd.play(0, 'run') // 40–45, looping, 10 fps
    crowd.play(1, 'attack', { loop: false }) // 46–53, once
    crowd.update(0.25) // one hitch of two and a half keyframes
    crowd.update(0.5)
    crowd.update(0.1)
    const of = (i: number) => heard.filter((e) => e.startsWith(`${i}:`)).map((e) => e.slice(2))
    // 0.85 s at 10 fps: the first frame, then eight more keyframes, going round once.
    expect(of(0)).toEqual(['40', '41', '42', '43', '44', '45', 'loop', '40', '41', '42'])
    expect(of(1)).toEqual(['46', '47', '48', '49', '50', '51', '52', '53', 'end'])
    crowd.dispose()
  })

  it('a hitch longer than a play-once animation still reports each of its keyframes once, then the end', () => {
    // death1 is 178–183: 0.6 s at 10 fps, passed in one 3-second frame (a tab in the background).
    const crowd = new MD2Crowd(ogro, { limit: 1, maxTextureSize: 4096 })
    const player = new KeyframeClock(ogro.header.numFrames)
    const heard = { crowd: [] as string[], player: [] as string[] }
    crowd.events = { onFrame: (_, frame) => heard.crowd.push(String(frame)), onEnd: () => heard.crowd.push('end') }
    const events = { onFrame: (frame: number) => heard.player.push(String(frame)), onEnd: () => heard.player.push('end') }
    crowd.play(0, 'death1', { loop: false })
    player.play({ start: 178, end: 183 }, { loop: false })
    crowd.update(3)
    player.advance(3, events)
    expect(heard.crowd).toEqual(['178', '179', '180', '181', '182', '183', 'end'])
    expect(heard.player).toEqual(heard.crowd)
    crowd.dispose()
  })
})

describe('MD2Crowd.getPoseBounds', () => {
  it("is the box of the instance's pose as decoded from the file, placed by its transform, to 1e-4", () => {
    const crowd = new MD2Crowd(ogro, { limit: 3, maxTextureSize: 4096 })
    crowd.setTransform(2, { position: new Vector3(30, 0, -12), rotation: 0.7, scale: 0.5 })
    crowd.showFrame(2, 183.25) // lying in the death animation, a quarter of the way to the next frame
    crowd.update(0)
    const box = crowd.getPoseBounds(2, new Box3())
    // Independently: the two keyframes decoded, blended, turned Y-up, placed by the same matrix.
    const a = decodeFrame(ogro, 183)
    const b = decodeFrame(ogro, 184)
    const matrix = new Matrix4().compose(
      new Vector3(30, 0, -12),
      new Quaternion().setFromAxisAngle(new Vector3(0, 1, 0), 0.7),
      new Vector3(0.5, 0.5, 0.5),
    )
    const want = new Box3()
    for (let v = 0; v < a.length; v += 3) {
      const q = [0, 1, 2].map((k) => a[v + k]! * 0.75 + b[v + k]! * 0.25)
      want.expandByPoint(new Vector3(q[1], q[2], q[0]).applyMatrix4(matrix))
    }
    for (const axis of ['x', 'y', 'z'] as const) {
      expect(Math.abs(box.min[axis] - want.min[axis])).toBeLessThan(1e-4)
      expect(Math.abs(box.max[axis] - want.max[axis])).toBeLessThan(1e-4)
    }
    // Lying down: under half the standing height (frame 0 spans its Z scale × 255), at this scale.
    expect(box.max.y - box.min.y).toBeLessThan(0.5 * 0.5 * (ogro.frameTransforms[2]! * 255))
    crowd.dispose()
  })
})

describe('MD2Crowd', () => {
  const camera = crowdCamera()

  it('uploads the file vertex bytes as they are: one RGBA8 texel per vertex per frame, a frame per row', () => {
    const crowd = new MD2Crowd(ogro, { limit: 4 })
    const { numVertices, numFrames } = ogro.header
    // Exactly the file's vertex bytes (its frames section less the 40-byte frame headers).
    expect(crowd.gpuBytes.frames).toBe(numVertices * numFrames * 4)
    expect(crowd.gpuBytes.frames).toBe(ogro.frameStride * numFrames - 40 * numFrames)
    crowd.dispose()
    // Past the device's row limit, frames go on in blocks beside: 600 frames in 256 rows, 3 blocks.
    const small = new MD2Crowd(manyFrameModel(600), { limit: 1, maxTextureSize: 256 })
    expect(small.gpuBytes.frames).toBe(256 * 3 * 4 * 4)
    small.showFrame(0, 555.25)
    small.setTransform(0, { position: new Vector3() })
    small.update(0.016)
    // A posed row: the keyframes as numbers (the shader places them, block 2 row 43 here), the blend.
    expect(instanceValues(small, 'md2Clock', 0)).toEqual([555, 556, 0.25, 1])
    small.dispose()
  })

  it('places an instance by [x, y, z] as by { x, y, z }, and refuses a placement that is not finite, naming the instance', () => {
    const crowd = new MD2Crowd(ogro, { limit: 3 })
    crowd.setTransform(0, { position: new Vector3(12, -3, 40), rotation: 0.4, scale: new Vector3(1, 2, 1) })
    crowd.setTransform(1, { position: [12, -3, 40], rotation: 0.4, scale: [1, 2, 1] })
    const [a, b] = [new Matrix4(), new Matrix4()]
    crowd.getMatrixAt(0, a)
    crowd.update(0)
    crowd.getMatrixAt(1, b)
    crowd.getMatrixAt(0, a)
    expect(b.elements).toEqual(a.elements)
    expect(a.elements[12]).toBeCloseTo(12)
    // A NaN drawn would be no instance at all, yet pass every culling test.
    expectMD2Error(() => crowd.setTransform(2, { position: new Vector3(0, Number.NaN, 0) }), 'BAD_ARGUMENT', { text: /instance 2.*NaN/ })
    expectMD2Error(() => crowd.setTransform(2, { position: [0, 0, 0], scale: Infinity }), 'BAD_ARGUMENT', { text: /instance 2/ })
    expectMD2Error(() => crowd.setTransform(2, {} as never), 'BAD_ARGUMENT', { text: /instance 2/ })
    // Nothing of a refused placement kept.
    expect(crowd.size).toBe(2)
    crowd.dispose()
  })

  it('keeps each instance as a stored row, written when it is told something, and lists the instances in view when asked', () => {
    const crowd = new MD2Crowd(ogro, { limit: 5 })
    const xs = [-60, 0, 60, 5000, -5000]
    xs.forEach((x, i) => crowd.setTransform(i, { position: new Vector3(x, 0, 0) }))
    crowd.play(0, 'run')
    crowd.showFrame(1, 40.5)
    crowd.play(2, 'stand')
    crowd.update(0.05, camera)
    const written = () => (crowd as unknown as { rows: { storedWritten: number } }).rows.storedWritten
    expect(written()).toBe(5)
    // Every instance in use is drawn, its slot its index: the shader culls the ones out of view.
    expect(crowd.count).toBe(5)
    expect(crowd.inView).toBe(3)
    expect([0, 1, 2].map((k) => crowd.instanceAt(k))).toEqual([0, 1, 2])
    // Instance 0 runs: its playhead at 0 at time 0, 10 keyframes a second round the run's 6 (40–45), looping.
    expect(instanceValues(crowd, 'md2Clock', 0)).toEqual([0, 0, 10, 6])
    expect(instanceValues(crowd, 'md2Range', 0)).toEqual([40, ROW_LOOP, 0, 0])
    // A still frame: a posed row (keyframes from and to, the blend).
    expect(instanceValues(crowd, 'md2Clock', 1)).toEqual([40, 41, 0.5, 1])
    expect(instanceValues(crowd, 'md2Range', 1)[1]).toBe(ROW_POSED)
    // Time passing writes nothing: the shader works the poses out.
    crowd.update(0.05, camera)
    expect(written()).toBe(0)
    crowd.hide(1)
    crowd.update(0.05, camera)
    expect(written()).toBe(1)
    expect(instanceValues(crowd, 'md2Range', 1)[1]).toBe(ROW_POSED | ROW_HIDDEN)
    expect(crowd.inView).toBe(2)
    crowd.update(0.05)
    expect(crowd.inView).toBe(4)
    crowd.dispose()
  })

  it("moves its rows' epoch on after 256 s, placing the looping playheads anew: the same poses, times kept near 0", () => {
    const crowd = new MD2Crowd(ogro, { limit: 3 })
    const stepped = new SteppedCrowdClock(3, ogro.header.numFrames)
    for (let i = 0; i < 3; i++) crowd.setTransform(i, { position: new Vector3(i * 60, 0, 0) })
    const run = ogro.animations.find((a) => a.name === 'run')!
    crowd.play(0, 'run')
    stepped.play(0, run)
    crowd.play(1, 'run', { loop: false })
    stepped.play(1, run, { loop: false })
    crowd.showFrame(2, 12.5)
    stepped.showFrame(2, 12.5)
    const written = () => (crowd as unknown as { rows: { storedWritten: number } }).rows.storedWritten
    const rebased: number[] = []
    // 300 s in steps of 1/64 s: past the epoch's 256 s once.
    for (let f = 0; f < 300 * 64; f++) {
      crowd.update(1 / 64)
      stepped.advance(1 / 64, 3)
      if (written() > 0 && f > 0) rebased.push(f)
    }
    expect(rebased).toEqual([256 * 64])
    // The looping instance's row was placed anew at the new epoch: its time counts from near 0 again.
    expect(Math.abs(instanceValues(crowd, 'md2Clock', 0)[1]!)).toBeLessThan(1)
    for (let i = 0; i < 3; i++) {
      const o = crowd.clock.pose(i)
      expect([...crowd.clock.poses.subarray(o, o + 3)]).toEqual([...stepped.poses.subarray(i * 8, i * 8 + 3)])
    }
    crowd.dispose()
  })

  it('a frame of 1,000,000 running instances writes no row, and 1,000 plays write those 1,000 alone', () => {
    const n = 1_000_000
    const crowd = new MD2Crowd(ogro, { limit: n })
    const at = new Vector3()
    for (let i = 0; i < n; i++) {
      crowd.setTransform(i, { position: at.set((i % 1000) * 60, 0, Math.floor(i / 1000) * 60) })
      crowd.play(i, i % 3 ? 'run' : 'stand')
    }
    const written = () => (crowd as unknown as { rows: { storedWritten: number } }).rows.storedWritten
    crowd.update(1 / 60, camera)
    expect(written()).toBe(n)
    for (let f = 0; f < 30; f++) {
      crowd.update(1 / 60, camera)
      expect(written()).toBe(0)
    }
    for (let c = 0; c < 1000; c++) crowd.play((c * 7919) % n, 'attack', { crossfade: 0.3 })
    crowd.update(1 / 60, camera)
    expect(written()).toBe(1000)
    expect(crowd.count).toBe(n)
    crowd.dispose()
  })

  it('raycasts against the animated triangles and reports the instance hit', () => {
    const crowd = new MD2Crowd(ogro, { limit: 3 })
    crowd.setTransform(0, { position: new Vector3(-60, 0, 0) })
    crowd.setTransform(1, { position: new Vector3(60, 0, 0) })
    crowd.showFrame(0, 0)
    crowd.showFrame(1, 0)
    crowd.update(0.016, camera)
    const raycaster = new Raycaster()
    const screen = new Vector3(60, 0, 0).project(camera)
    raycaster.setFromCamera(new Vector2(screen.x, screen.y), camera)
    const hits = raycaster.intersectObject(crowd)
    expect(hits.length).toBeGreaterThan(0)
    expect(hits[0]!.instanceId).toBe(1)
    expect(hits[0]!.object).toBe(crowd)
    raycaster.setFromCamera(new Vector2(0, 0.9), camera)
    expect(raycaster.intersectObject(crowd)).toEqual([])
    crowd.dispose()
  })

  it('refuses a model too large for the device, naming the limit, and instances outside the limit', () => {
    expectMD2Error(() => new MD2Crowd(soldier, { limit: 1, maxTextureSize: 256 }), 'OUT_OF_RANGE', { text: 'MAX_TEXTURE_SIZE is 256' })
    const crowd = new MD2Crowd(ogro, { limit: 2 })
    expectMD2Error(() => crowd.setTransform(2, { position: new Vector3() }), 'BAD_ARGUMENT', { text: 'limit' })
    expectMD2Error(() => new MD2Crowd(ogro, { limit: 0 }), 'BAD_ARGUMENT')
    crowd.dispose()
  })

  it('a frame of 10,000 animated, crossfading, culled instances, some shelled or shadowed, allocates nothing', async () => {
    const crowd = new MD2Crowd(ogro, { limit: 10_000, lighting: 'quake2', glow: true })
    for (let i = 0; i < 10_000; i++) {
      crowd.setTransform(i, { position: new Vector3((i % 100) * 40 - 2000, 0, -Math.floor(i / 100) * 40), rotation: i * 0.1 })
      crowd.play(i, i % 2 ? 'run' : 'stand')
      if (i % 3 === 0) crowd.play(i, 'attack', { crossfade: 0.3 })
      if (i % 5 === 0) crowd.setShell(i, i % 2 ? 'red' : ['green', 'blue'])
      if (i % 4 === 0) crowd.setShadow(i, 'blob')
    }
    const frame = () => crowd.update(1 / 60, camera)
    const perFrame = await settled(() => bytesPerCall(frame, 1, 20), frame)
    expect(perFrame).toBeLessThan(8)
    // Drawn from stored rows, shells and shadows too: every instance drawn, the shader culling.
    expect(crowd.drawnFrom).toBe('stored')
    expect(crowd.count).toBe(10_000)
    expect(crowd.inView).toBeGreaterThan(0)
    expect(crowd.inView).toBeLessThan(10_000)
    expect(crowd.shell!.count).toBeGreaterThan(0)
    expect(crowd.shadow!.count).toBeGreaterThan(0)
    crowd.dispose()
  })
})

describe('MD2Crowd shared frame data', () => {
  it('is built once per model, shared by its crowds, and outlives a crowd disposed twice', () => {
    const a = new MD2Crowd(ogro, { limit: 1 })
    const b = new MD2Crowd(ogro, { limit: 1 })
    const frames = (crowd: MD2Crowd) => (crowd as unknown as { frames: { frames: unknown } }).frames.frames
    expect(frames(a)).toBe(frames(b))
    a.dispose()
    a.dispose()
    const c = new MD2Crowd(ogro, { limit: 1 })
    // b still holds it: c shares b's texture instead of building another.
    expect(frames(c)).toBe(frames(b))
    b.dispose()
    c.dispose()
    const d = new MD2Crowd(ogro, { limit: 1 })
    expect(frames(d)).not.toBe(frames(b))
    d.dispose()
  })
})

/** The values of drawn slot `k` in one of the crowd's per-instance attributes (one interleaved buffer). */
function instanceValues(crowd: MD2Crowd, name: string, k: number): number[] {
  const attribute = crowd.geometry.getAttribute(name)
  return [attribute.getX(k), attribute.getY(k), attribute.getZ(k), attribute.getW(k)].slice(0, attribute.itemSize)
}
