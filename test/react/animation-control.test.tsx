import { createRef, useEffect } from 'react'
import type { BufferGeometry, Group, Mesh } from 'three'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { blendFrames, buildVertexLayout, parseMD2, type MD2ModelData as Model } from '../../src/core/internal'
import type { MD2AnimationController } from '../../src/core/animation/MD2AnimationController'
import { MD2Model } from '../../src/react/MD2Model'
import { useMD2Animation } from '../../src/react/useMD2Animation'
import { usePlayerAnimation, type UsePlayerAnimationOptions } from '../../src/react/usePlayerAnimation'
import type { PlayerAnimationController } from '../../src/core/animation/PlayerAnimationController'
import { readAsset } from '../support/assets'
import { mount, type Renderer } from '../support/render'

const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2'), { name: 'ogro/tris.MD2' })
const weapon = parseMD2(readAsset('quake2/ogro/weapon.md2'), { name: 'ogro/weapon.md2' })

afterEach(() => {
  vi.restoreAllMocks()
})

const positionsOf = (group: Group) =>
  ((group.children[0] as Mesh).geometry as BufferGeometry).getAttribute('position').array as Float32Array

/** The core's blend of two keyframes, per output vertex, Y-up. */
function expected(model: Model, from: number, to: number, t: number): Float32Array {
  const { xyzIndex } = buildVertexLayout(model)
  const quake = blendFrames(model, from, to, t)
  const out = new Float32Array(xyzIndex.length * 3)
  for (let i = 0; i < xyzIndex.length; i++) {
    const v = xyzIndex[i]!
    out[i * 3] = quake[v * 3 + 1]!
    out[i * 3 + 1] = quake[v * 3 + 2]!
    out[i * 3 + 2] = quake[v * 3]!
  }
  return out
}

function maxDifference(a: Float32Array, b: Float32Array): number {
  expect(a.length).toBe(b.length)
  let worst = 0
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!))
  return worst
}

/** The largest distance any vertex of `group` moves in one of `steps` frames of `step` seconds, starting from `previous`. */
async function largestStepOver(r: Renderer, group: Group, previous: Float32Array, steps: number, step: number): Promise<number> {
  let worst = 0
  for (let i = 0; i < steps; i++) {
    await r.advanceFrames(1, step)
    const now = positionsOf(group)
    worst = Math.max(worst, largestStep(previous, now))
    previous = now.slice()
  }
  return worst
}

/** Mounts an ogro driven by `usePlayerAnimation(ogro, options)`: the renderer and the hook's controller. */
async function mountPlayer(options?: UsePlayerAnimationOptions): Promise<{ r: Renderer; player: PlayerAnimationController }> {
  let player: PlayerAnimationController | undefined
  function Player() {
    const p = usePlayerAnimation(ogro, options)
    useEffect(() => {
      player = p
    })
    return <MD2Model model={ogro} controller={p} />
  }
  const r = await mount(<Player />)
  return { r, player: player! }
}

/** Two ogros switching animation together: one with a 0.3 s crossfade, one cutting. */
function fadeAndCut() {
  const fading = createRef<Group>()
  const cut = createRef<Group>()
  const scene = (animation: string) => (
    <>
      <MD2Model ref={fading} model={ogro} animation={animation} crossfade={0.3} />
      <MD2Model ref={cut} model={ogro} animation={animation} />
    </>
  )
  return { fading, cut, scene }
}

/** The largest distance any vertex moves between two snapshots. */
function largestStep(before: Float32Array, after: Float32Array): number {
  let worst = 0
  for (let i = 0; i < before.length; i += 3) {
    const dx = after[i]! - before[i]!,
      dy = after[i + 1]! - before[i + 1]!,
      dz = after[i + 2]! - before[i + 2]!
    worst = Math.max(worst, Math.hypot(dx, dy, dz))
  }
  return worst
}

describe('fractional frames', () => {
  it('frame={40.5} shows the midpoint of frames 40 and 41, vertex for vertex', async () => {
    const ref = createRef<Group>()
    const r = await mount(<MD2Model ref={ref} model={ogro} frame={40.5} />)
    await r.advanceFrames(2, 1 / 60)
    expect(maxDifference(positionsOf(ref.current!), expected(ogro, 40, 41, 0.5))).toBeLessThan(1e-4)
    await r.update(<MD2Model ref={ref} model={ogro} frame={40.25} />)
    await r.advanceFrames(1, 1 / 60)
    expect(maxDifference(positionsOf(ref.current!), expected(ogro, 40, 41, 0.25))).toBeLessThan(1e-4)
  })

  it('the last frame, and non-finite frames, never put NaN in the buffer', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const ref = createRef<Group>()
    const last = ogro.header.numFrames - 1
    const r = await mount(<MD2Model ref={ref} model={ogro} frame={last} />)
    await r.advanceFrames(1, 1 / 60)
    expect(maxDifference(positionsOf(ref.current!), expected(ogro, last, last, 0))).toBeLessThan(1e-4)
    for (const frame of [Infinity, -Infinity, Number.NaN, -3.5, 1e9]) {
      await r.update(<MD2Model ref={ref} model={ogro} frame={frame} />)
      await r.advanceFrames(1, 1 / 60)
      expect(positionsOf(ref.current!).every(Number.isFinite)).toBe(true)
    }
  })
})

describe('crossfade', () => {
  it('stand → run over 0.3 s: no vertex moves much further in a 1/60 s step than in steady running; then equals a cut', async () => {
    const step = 1 / 60
    // Steady running: the largest step any vertex takes over two whole cycles.
    const runner = createRef<Group>()
    const rr = await mount(<MD2Model ref={runner} model={ogro} animation="run" />)
    let steady = 0
    let previous = positionsOf(runner.current!).slice()
    for (let i = 0; i < 72; i++) {
      await rr.advanceFrames(1, step)
      const now = positionsOf(runner.current!)
      steady = Math.max(steady, largestStep(previous, now))
      previous = now.slice()
    }
    expect(steady).toBeGreaterThan(0.5)

    // A standing model switches to run with a crossfade; a second one cuts at the same moment.
    const { fading, cut, scene } = fadeAndCut()
    const r = await mount(scene('stand'))
    await r.advanceFrames(13, step)
    previous = positionsOf(fading.current!).slice()
    await r.update(scene('run'))
    const fadeWorst = await largestStepOver(r, fading.current!, previous, 24, step)
    // A fade in a fixed time cannot always stay under the incoming animation's own top speed (the
    // fastest limb still has to cover the distance between the poses): within 5% of it.
    expect(fadeWorst).toBeLessThanOrEqual(steady * 1.05)
    // 24 steps = 0.4 s: the fade is over, and the pose is exactly the cut model's.
    expect(maxDifference(positionsOf(fading.current!), positionsOf(cut.current!))).toBeLessThan(1e-4)
  })

  it('a fade from a fade in progress stays continuous and ends on the newest animation', async () => {
    const step = 1 / 60
    const { fading, cut, scene } = fadeAndCut()
    const r = await mount(scene('stand'))
    await r.advanceFrames(10, step)
    await r.update(scene('run'))
    await r.advanceFrames(12, step) // 0.2 s into the first fade
    const previous = positionsOf(fading.current!).slice()
    await r.update(scene('attack'))
    const worst = await largestStepOver(r, fading.current!, previous, 24, step)
    expect(Number.isFinite(worst)).toBe(true)
    expect(maxDifference(positionsOf(fading.current!), positionsOf(cut.current!))).toBeLessThan(1e-4)
  })
})

describe('events', () => {
  for (const fps of [5, 60, 240]) {
    it(`onFrame fires once per keyframe reached, in order, at ${fps} frames a second`, async () => {
      const frames: number[] = []
      const loops = vi.fn()
      const r = await mount(<MD2Model model={ogro} animation="run" onFrame={(frame) => frames.push(frame)} onLoop={loops} />)
      // run is frames 40–45 at 10 keyframes a second; 1.6 s reaches 16 keyframes after the first.
      const ticks = Math.round(1.6 * fps)
      for (let i = 0; i < ticks; i++) await r.advanceFrames(1, 1 / fps)
      expect(frames).toEqual([40, 41, 42, 43, 44, 45, 40, 41, 42, 43, 44, 45, 40, 41, 42, 43, 44])
      expect(loops).toHaveBeenCalledTimes(2)
    })
  }

  it('onAnimationEnd fires once for a play-once animation, after its last keyframe', async () => {
    const calls: string[] = []
    const r = await mount(
      <MD2Model
        model={ogro}
        animation="jump"
        loop={false}
        onFrame={(frame) => calls.push(String(frame))}
        onAnimationEnd={(animation) => calls.push(`end ${animation.name}`)}
      />,
    )
    await r.advanceFrames(60, 1 / 30)
    expect(calls).toEqual(['66', '67', '68', '69', '70', '71', 'end jump'])
  })
})

describe('controllers', () => {
  it('controllerRef plays, pauses, resumes and reports frame and progress', async () => {
    const controller = createRef<MD2AnimationController>()
    const ref = createRef<Group>()
    const r = await mount(<MD2Model ref={ref} model={ogro} controllerRef={controller} />)
    const c = controller.current!
    c.play('run', { loop: false })
    expect(c.animation.name).toBe('run')
    await r.advanceFrames(1, 0.125) // 1.25 keyframes
    expect(c.frame).toBeCloseTo(41.25, 5)
    expect(c.progress).toBeCloseTo(1.25 / 5, 5)
    expect(maxDifference(positionsOf(ref.current!), expected(ogro, 41, 42, 0.25))).toBeLessThan(1e-4)
    c.pause()
    await r.advanceFrames(5, 0.1)
    expect(c.frame).toBeCloseTo(41.25, 5)
    expect(c.playing).toBe(false)
    c.resume()
    await r.advanceFrames(10, 0.1)
    expect(c.progress).toBe(1)
    expect(c.playing).toBe(false)
    c.play('stand', { reverse: true })
    await r.advanceFrames(1, 0.1)
    expect(c.frame).toBe(38)
  })

  it('useMD2Animation drives a model through `controller`, and a synced child shows the same frames', async () => {
    let controller: MD2AnimationController | undefined
    const body = createRef<Group>()
    const gun = createRef<Group>()
    function Player() {
      const animation = useMD2Animation(ogro, { animation: 'attack' })
      useEffect(() => {
        controller = animation
      })
      return (
        <MD2Model ref={body} model={ogro} controller={animation}>
          <MD2Model ref={gun} model={weapon} sync animation="stand" />
        </MD2Model>
      )
    }
    const r = await mount(<Player />)
    await r.advanceFrames(3, 0.1 / 3 + 1e-9)
    expect(controller!.animation.name).toBe('attack')
    const pose = controller!.pose
    expect(pose.from).toBe(47)
    expect(maxDifference(positionsOf(body.current!), expected(ogro, pose.from, pose.to, pose.t))).toBeLessThan(1e-4)
    expect(maxDifference(positionsOf(gun.current!), expected(weapon, pose.from, pose.to, pose.t))).toBeLessThan(1e-4)
  })

  it('usePlayerAnimation plays the game rules: run, attack over run, back to run', async () => {
    const { r, player } = await mountPlayer()
    player.input.moving = true
    await r.advanceFrames(1, 0.1)
    expect(player.state.frame).toBe(40)
    player.input.firing = true
    await r.advanceFrames(1, 0.1)
    expect(player.state.frame).toBe(46)
    await r.advanceFrames(7, 0.1)
    expect(player.state.frame).toBe(53)
    await r.advanceFrames(1, 0.1)
    expect(player.state.frame).toBe(40)
  })

  it("usePlayerAnimation onFrame reports each tick's keyframe once, in order, also when one rendered frame runs several ticks", async () => {
    const heard: number[] = []
    const { r, player } = await mountPlayer({ onFrame: (frame) => heard.push(frame) })
    player.input.moving = true
    await r.advanceFrames(1, 0.1)
    // One rendered frame of 0.35 s: three ticks, three keyframes of the run.
    await r.advanceFrames(1, 0.35)
    await r.advanceFrames(4, 0.1)
    expect(heard).toEqual([40, 41, 42, 43, 44, 45, 40, 41])
    // Footsteps fall on the run's 41 and 44: counted from the events, not the frames drawn.
    expect(heard.filter((frame) => frame === 41 || frame === 44)).toHaveLength(3)
  })
})

describe('bad animation props', () => {
  it('non-finite, zero, negative and overflowing rates warn once, naming the prop, and never put NaN in the buffer', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const ref = createRef<Group>()
    const cases: Record<string, unknown>[] = [
      { fps: Infinity },
      { fps: Number.NaN },
      { fps: 0 },
      { speed: -2 },
      { speed: Number.NaN },
      { fps: 1e300, speed: 1e300 },
      { crossfade: -1 },
    ]
    const r = await mount(<MD2Model ref={ref} model={ogro} animation="run" />)
    for (const props of cases) {
      await r.update(<MD2Model ref={ref} model={ogro} animation="stand" {...props} />)
      await r.advanceFrames(3, 1 / 60)
      await r.update(<MD2Model ref={ref} model={ogro} animation="run" {...props} />)
      await r.advanceFrames(3, 1 / 60)
      expect(positionsOf(ref.current!).every(Number.isFinite)).toBe(true)
    }
    const messages = warn.mock.calls.map(([message]) => String(message))
    for (const text of ['fps={Infinity}', 'fps={NaN}', 'fps={0}', 'speed={-2}', 'speed={NaN}', 'fps × speed', 'crossfade={-1}']) {
      expect(messages.filter((message) => message.includes(text))).toHaveLength(1)
    }
    // The model still plays at a sane rate afterwards: run advances.
    const before = positionsOf(ref.current!).slice()
    await r.advanceFrames(2, 0.05)
    expect(maxDifference(before, positionsOf(ref.current!))).toBeGreaterThan(0.1)
  })

  it('frame ranges reversed, empty or past the last frame are named in a warning and clamped', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const controller = createRef<MD2AnimationController>()
    const last = ogro.header.numFrames - 1
    const r = await mount(<MD2Model model={ogro} controllerRef={controller} animation={{ start: 0, end: Infinity }} />)
    expect([controller.current!.animation.start, controller.current!.animation.end]).toEqual([0, last])
    await r.update(<MD2Model model={ogro} controllerRef={controller} animation={{ start: 50, end: 40 }} />)
    await r.update(<MD2Model model={ogro} controllerRef={controller} animation={{ start: 500, end: 600 }} />)
    expect([controller.current!.animation.start, controller.current!.animation.end]).toEqual([last, last])
    const messages = warn.mock.calls.map(([message]) => String(message))
    expect(messages.some((m) => m.includes(`0–Infinity does not fit frames 0–${last}`))).toBe(true)
    expect(messages.some((m) => m.includes('50–40 is reversed') && m.includes('playing 40–50 forwards'))).toBe(true)
    expect(messages.some((m) => m.includes('500–600 does not fit'))).toBe(true)
  })
})

describe('the crossfade kernel', () => {
  it('equals the lerp of the two blends, positions and normals, on aligned and unaligned frames', async () => {
    const { blendPoseYUp, blendVerticesYUp } = await import('../../src/core/animation/blendVertices')
    const bytes = readAsset('quake2/ogro/tris.MD2')
    const shifted = new Uint8Array(bytes.length + 1)
    shifted.set(bytes, 1)
    for (const model of [ogro, parseMD2(shifted.subarray(1))]) {
      const { xyzIndex } = buildVertexLayout(model)
      const size = xyzIndex.length * 3
      const [pi, ni, po, no, pf, nf] = Array.from({ length: 6 }, () => new Float32Array(size))
      for (const [from, to, t, fadeFrom, fadeTo, fadeT, fadeWeight] of [
        [40, 41, 0.25, 3, 4, 0.5, 0.7],
        [45, 40, 0.9, 100, 101, 0, 0.01],
        [0, 0, 0, 198, 0, 0.5, 1],
      ] as const) {
        blendVerticesYUp(model, { from, to, t }, { xyzIndex, positions: pi!, normals: ni! })
        blendVerticesYUp(model, { from: fadeFrom, to: fadeTo, t: fadeT }, { xyzIndex, positions: po!, normals: no! })
        blendPoseYUp(model, { from, to, t, fadeFrom, fadeTo, fadeT, fadeWeight }, { xyzIndex, positions: pf!, normals: nf! })
        let worst = 0
        for (let i = 0; i < size; i++) {
          worst = Math.max(
            worst,
            Math.abs(pf![i]! - (pi![i]! * (1 - fadeWeight) + po![i]! * fadeWeight)),
            Math.abs(nf![i]! - (ni![i]! * (1 - fadeWeight) + no![i]! * fadeWeight)) * 100,
          )
        }
        expect(worst).toBeLessThan(2e-4)
      }
    }
  })
})
