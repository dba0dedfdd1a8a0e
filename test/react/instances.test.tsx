/**
 * <MD2Instances> and <MD2Instance> in React Three Fiber's test renderer: each instance takes a slot of
 * one MD2Crowd, is placed by its own transform, animates by <MD2Model>'s props with the same controller
 * and events, gives its slot back on unmount, and a crowd past its limit says so.
 */
import { createRef } from 'react'
import type { Group } from 'three'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { MD2CrowdInstance } from '../../src/three/crowd/MD2CrowdInstance'
import { CROWD_POSE_STRIDE } from '../../src/core/animation/CrowdClock'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { MD2Instance, MD2Instances } from '../../src/react/MD2Instances'
import { MD2Quake2Lighting } from '../../src/react/looks/MD2Quake2Lighting'
import type { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import { readAsset } from '../support/assets'
import { Boundary } from '../support/boundary'
import { mount } from '../support/render'

const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2').slice(), { name: 'ogro/tris.MD2' })

afterEach(() => vi.restoreAllMocks())

/** The pose instance `i` shows: from, to, t. */
// Worked out from the instance's stored row when asked.
const poseOf = (crowd: MD2Crowd, i: number) => [...crowd.clock.poses.subarray(crowd.clock.pose(i), i * CROWD_POSE_STRIDE + 3)]

describe('<MD2Instances>', () => {
  it('instances take slots, follow their transforms and animate by props, with the controller and events', async () => {
    const crowd = createRef<MD2Crowd>()
    const controller = createRef<MD2CrowdInstance>()
    const onFrame = vi.fn()
    const onEnd = vi.fn()
    const r = await mount(
      <MD2Instances ref={crowd} model={ogro} limit={3}>
        <MD2Instance position={[10, 0, 0]} animation="run" onFrame={onFrame} controllerRef={controller} />
        <MD2Instance position={[-10, 0, 5]} rotation={[0, 1, 0]} frame={40.5} />
        <MD2Instance animation="pain1" loop={false} onAnimationEnd={onEnd} />
      </MD2Instances>,
    )
    for (let i = 0; i < 30; i++) await r.advanceFrames(1, 0.05)
    const c = crowd.current!
    expect(c.size).toBe(3)
    expect(c.inView).toBe(3)
    // Instance 0 runs: its pose is what its controller shows, frames of "run" reported in order.
    expect(poseOf(c, 0)).toEqual([controller.current!.pose.from, controller.current!.pose.to, controller.current!.pose.t])
    const run = ogro.animations.find((a) => a.name === 'run')!
    const reported = onFrame.mock.calls.map(([frame]) => frame as number)
    expect(reported.length).toBeGreaterThan(10)
    for (const frame of reported) expect(frame >= run.start && frame <= run.end).toBe(true)
    // Instance 1 holds frame 40.5; instance 2 played pain1 once.
    expect(poseOf(c, 1)).toEqual([40, 41, 0.5])
    expect(onEnd).toHaveBeenCalledTimes(1)
    // Placed by their groups: translation in the drawn slot's matrix.
    const matrices = c.instanceMatrix.array
    expect([matrices[12], matrices[13], matrices[14]]).toEqual([10, 0, 0])
    expect([matrices[16 + 12], matrices[16 + 14]]).toEqual([-10, 5])
  })

  it('under StrictMode, each instance reports its frames, loops and end once each, in order', async () => {
    const dying: (number | string)[] = []
    const running: (number | string)[] = []
    const r = await mount(
      <MD2Instances model={ogro} limit={2}>
        <MD2Instance
          animation="death1"
          loop={false}
          onFrame={(frame) => dying.push(frame)}
          onLoop={() => dying.push('loop')}
          onAnimationEnd={() => dying.push('end')}
        />
        <MD2Instance
          animation="run"
          onFrame={(frame) => running.push(frame)}
          onLoop={() => running.push('loop')}
          onAnimationEnd={() => running.push('end')}
        />
      </MD2Instances>,
    )
    // Two seconds at 60 Hz: death1 (6 frames at 10 fps) ends; run (6 frames) goes round three times.
    for (let i = 0; i < 120; i++) await r.advanceFrames(1, 1 / 60)
    const death = ogro.animations.find((a) => a.name === 'death1')!
    const run = ogro.animations.find((a) => a.name === 'run')!
    const range = (a: { start: number; end: number }) => Array.from({ length: a.end - a.start + 1 }, (_, i) => a.start + i)
    expect(dying).toEqual([...range(death), 'end'])
    const round = range(run)
    expect(running.slice(0, 3 * (round.length + 1))).toEqual([...round, 'loop', ...round, 'loop', ...round, 'loop'])
    // Later frames keep the order: a loop after each last frame, nothing twice.
    for (let i = 1; i < running.length; i++) {
      const [before, now] = [running[i - 1], running[i]]
      if (now === 'loop') expect(before).toBe(run.end)
      else expect(now).toBe(before === 'loop' ? run.start : (before as number) + 1)
    }
  })

  it('an unmounted instance gives its slot back and is not drawn', async () => {
    const crowd = createRef<MD2Crowd>()
    const scene = (n: number) => (
      <MD2Instances ref={crowd} model={ogro} limit={2}>
        {Array.from({ length: n }, (_, i) => (
          <MD2Instance key={i} position={[i * 10, 0, 0]} animation="stand" />
        ))}
      </MD2Instances>
    )
    const r = await mount(scene(2))
    await r.advanceFrames(1, 0.05)
    expect(crowd.current!.inView).toBe(2)
    await r.update(scene(1))
    await r.advanceFrames(1, 0.05)
    expect(crowd.current!.inView).toBe(1)
    await r.update(scene(2))
    await r.advanceFrames(1, 0.05)
    expect(crowd.current!.inView).toBe(2)
  })

  it("the controller plays its instance on the crowd's clock, and a kept controller lets the slot's next owner be", async () => {
    const crowd = createRef<MD2Crowd>()
    const controller = createRef<MD2CrowdInstance>()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const scene = (first: boolean) => (
      <MD2Instances ref={crowd} model={ogro} limit={1}>
        {first ? <MD2Instance key="a" animation="stand" controllerRef={controller} /> : <MD2Instance key="b" frame={3} />}
      </MD2Instances>
    )
    const r = await mount(scene(true))
    await r.advanceFrames(2, 0.05)
    const c = crowd.current!
    const control = controller.current!
    control.play('jump', { loop: false })
    await r.advanceFrames(1, 0.01)
    const jump = ogro.animations.find((a) => a.name === 'jump')!
    expect(control.animation).toBe(jump)
    expect(poseOf(c, 0)[0]).toBe(jump.start)
    control.pause()
    const paused = poseOf(c, 0)
    await r.advanceFrames(3, 0.05)
    expect(poseOf(c, 0)).toEqual(paused)
    expect(control.playing).toBe(false)
    control.showFrame(12.25)
    await r.advanceFrames(1, 0.05)
    expect(poseOf(c, 0)).toEqual([12, 13, 0.25])
    // An unknown name warns once, naming what plays instead.
    control.play('nope')
    control.play('nope')
    expect(warn.mock.calls.filter(([m]) => String(m).includes('nope'))).toHaveLength(1)
    // The slot goes to another instance; the old controller no longer reaches it.
    await r.update(scene(false))
    await r.advanceFrames(1, 0.05)
    control.play('run')
    control.showFrame(40)
    await r.advanceFrames(2, 0.05)
    expect(poseOf(c, 0)).toEqual([3, 3, 0])
  })

  it('an <MD2Quake2Lighting> inside changes the light of every instance live', async () => {
    const crowd = createRef<MD2Crowd>()
    const scene = (shadelight: number | [number, number, number], fullbright = false) => (
      <MD2Instances ref={crowd} model={ogro} limit={2}>
        <MD2Quake2Lighting shadelight={shadelight} fullbright={fullbright} />
        <MD2Instance animation="stand" />
        <MD2Instance animation="run" />
      </MD2Instances>
    )
    const lightOf = (k: number) => {
      const light = crowd.current!.geometry.getAttribute('md2Light')
      return [light.getX(k), light.getY(k), light.getZ(k)]
    }
    const r = await mount(scene(0.5))
    await r.advanceFrames(1, 0.05)
    expect(lightOf(1)).toEqual([0.5, 0.5, 0.5])
    await r.update(scene([0.2, 0.4, 0.8]))
    await r.advanceFrames(1, 0.05)
    expect(lightOf(0).map((v) => Math.round(v * 10) / 10)).toEqual([0.2, 0.4, 0.8])
    await r.update(scene(0.2, true))
    await r.advanceFrames(1, 0.05)
    expect(lightOf(1)).toEqual([1, 1, 1])
  })

  it('more instances than the limit is a coded error naming it', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const onError = vi.fn()
    await mount(
      <Boundary onError={onError}>
        <MD2Instances model={ogro} limit={1}>
          <MD2Instance />
          <MD2Instance />
        </MD2Instances>
      </Boundary>,
    )
    expect(onError).toHaveBeenCalled()
    expect(onError.mock.calls[0]![0]).toMatchObject({ code: 'BAD_ARGUMENT', message: expect.stringContaining('limit={1}') })
  })

  it('limit={0} is an empty crowd: it mounts, draws nothing, and an <MD2Instance> in it is past the limit', async () => {
    const crowd = createRef<MD2Crowd>()
    const r = await mount(<MD2Instances ref={crowd} model={ogro} limit={0} />)
    await r.advanceFrames(3, 0.05)
    expect([crowd.current!.size, crowd.current!.count, crowd.current!.inView]).toEqual([0, 0, 0])

    vi.spyOn(console, 'error').mockImplementation(() => {})
    const onError = vi.fn()
    await r.update(
      <Boundary onError={onError}>
        <MD2Instances model={ogro} limit={0}>
          <MD2Instance />
        </MD2Instances>
      </Boundary>,
    )
    expect(onError).toHaveBeenCalled()
    expect(onError.mock.calls[0]![0]).toMatchObject({
      code: 'BAD_ARGUMENT',
      message: expect.stringContaining('limit={0}> holds 0 instances'),
    })
  })

  it('<MD2Instance> outside <MD2Instances> says where it belongs', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const onError = vi.fn()
    const group = createRef<Group>()
    await mount(
      <Boundary onError={onError}>
        <MD2Instance ref={group} />
      </Boundary>,
    )
    expect(onError.mock.calls[0]![0]).toMatchObject({ code: 'BAD_ARGUMENT', message: expect.stringContaining('inside <MD2Instances>') })
  })
})
