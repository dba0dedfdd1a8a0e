/**
 * Who works a crowd's poses out (`pose`): its shader, from stored rows (nothing per instance per frame on the CPU),
 * or the CPU for the instances in view each frame (each vertex then only decodes). `"auto"` takes the CPU where the
 * renderer draws WebGL in software, where every vertex is shaded on the CPU and a pose per vertex is the dearer.
 */
import { Vector3 } from 'three'
import { createElement, createRef } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MD2Instance, MD2Instances } from '../../src/react/MD2Instances'
import { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import { followCrowd } from '../../src/three/crowd/followCrowd'
import { parseAsset } from '../support/assets'
import { crowdCamera } from '../support/cameras'
import { HARDWARE, LLVMPIPE, SWIFTSHADER, webglOn } from '../support/glRenderers'
import { mount } from '../support/render'

afterEach(() => {
  vi.restoreAllMocks()
})

/** Twelve running Ogros in a row, the camera seeing some of them. */
function row(pose?: 'auto' | 'shader' | 'cpu'): MD2Crowd {
  const crowd = new MD2Crowd(parseAsset('quake2/ogro/tris.MD2', 'ogro'), { limit: 16, ...(pose && { pose }) })
  for (let i = 0; i < 12; i++) {
    crowd.setTransform(i, { position: new Vector3(i * 400 - 2200, 0, 0) })
    crowd.play(i, 'run')
  }
  return crowd
}

/** A frame: the crowd met by `renderer`, then updated with the camera. */
function frame(crowd: MD2Crowd, renderer: unknown): void {
  ;(crowd.onBeforeRender as unknown as (renderer: unknown) => void)(renderer)
  crowd.update(1 / 60, crowdCamera())
}

describe('who poses a crowd', () => {
  it.each([
    ['SwiftShader', SWIFTSHADER, 'posed'],
    ['llvmpipe, without the debug extension', LLVMPIPE, 'posed'],
    ['a hardware GPU', HARDWARE, 'stored'],
  ] as const)('"auto" on WebGL drawn by %s: %s rows', (_, device, expected) => {
    const crowd = row()
    expect(crowd.pose).toBe('auto')
    frame(crowd, webglOn(device, device !== LLVMPIPE))
    frame(crowd, webglOn(device, device !== LLVMPIPE))
    expect(crowd.drawnFrom).toBe(expected)
    // Posed: the CPU culled them, drawing those in view; stored: every instance in use, culled by the shader.
    expect(crowd.count).toBe(expected === 'posed' ? crowd.inView : 12)
    expect(crowd.inView).toBeGreaterThan(0)
    expect(crowd.inView).toBeLessThan(12)
    crowd.dispose()
  })

  it('"shader" and "cpu" are taken whatever draws the crowd, and set later switch it at the next update', () => {
    const shader = row('shader')
    const cpu = row('cpu')
    frame(shader, webglOn(SWIFTSHADER))
    frame(cpu, webglOn(HARDWARE))
    expect([shader.drawnFrom, cpu.drawnFrom]).toEqual(['stored', 'posed'])
    shader.pose = 'cpu'
    cpu.pose = 'auto'
    frame(shader, webglOn(SWIFTSHADER))
    frame(cpu, webglOn(HARDWARE))
    expect([shader.drawnFrom, cpu.drawnFrom]).toEqual(['posed', 'stored'])
    for (const crowd of [shader, cpu]) crowd.dispose()
  })

  it('a follower is posed with its leader, and a pose it does not know warns once and is "auto"', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const leader = row('cpu')
    const weapon = new MD2Crowd(parseAsset('quake2/ogro/weapon.md2', 'ogro weapon'), { limit: 16 })
    followCrowd(weapon, leader)
    frame(leader, webglOn(HARDWARE))
    expect([leader.drawnFrom, weapon.drawnFrom]).toEqual(['posed', 'posed'])
    expect(weapon.count).toBe(leader.count)
    leader.pose = 'gpu' as 'auto'
    leader.pose = 'gpu' as 'auto'
    expect(leader.pose).toBe('auto')
    expect(warn.mock.calls.filter(([message]) => String(message).includes('"gpu"'))).toHaveLength(1)
    expect(String(warn.mock.calls[0]![0])).toContain('is not "auto", "shader" or "cpu"; using "auto"')
    frame(leader, webglOn(HARDWARE))
    expect([leader.drawnFrom, weapon.drawnFrom]).toEqual(['stored', 'stored'])
    leader.dispose()
    weapon.dispose()
  })

  it('a follower first posed when a software renderer meets it draws its leader’s instances, not those its own sphere sees', () => {
    // Ogros across the view's edge: the weapon's sphere (smaller than the body's) leaves some a body's keeps in view.
    const leader = new MD2Crowd(parseAsset('quake2/ogro/tris.MD2', 'ogro'), { limit: 64 })
    const weapon = new MD2Crowd(parseAsset('quake2/ogro/weapon.md2', 'ogro weapon'), { limit: 64 })
    for (let i = 0; i < 64; i++) {
      leader.setTransform(i, { position: new Vector3(i * 6 - 400, (i % 8) * 12 - 48, 0) })
      leader.play(i, 'run')
    }
    followCrowd(weapon, leader)
    const camera = crowdCamera()
    const software = webglOn(SWIFTSHADER)
    // The first frame is updated before any renderer is met (stored rows, each crowd listing its own view), then drawn.
    leader.update(1 / 60, camera)
    const weaponOwnView = weapon.inView
    for (const crowd of [leader, weapon]) (crowd.onBeforeRender as unknown as (renderer: unknown) => void)(software)
    expect([leader.drawnFrom, weapon.drawnFrom]).toEqual(['posed', 'posed'])
    expect(weaponOwnView, 'the weapons’ own view lists another set (else this test shows nothing)').not.toBe(leader.count)
    expect(weapon.count).toBe(leader.count)
    for (let k = 0; k < leader.count; k++) expect(weapon.instanceAt(k)).toBe(leader.instanceAt(k))
    leader.dispose()
    weapon.dispose()
  })

  it('<MD2Instances pose> sets it in place (no new crowd), and a follower inside takes its leader’s', async () => {
    const body = createRef<MD2Crowd>()
    const weapon = createRef<MD2Crowd>()
    const model = parseAsset('quake2/ogro/tris.MD2', 'ogro (React)')
    const weaponModel = parseAsset('quake2/ogro/weapon.md2', 'ogro weapon (React)')
    const scene = (pose?: 'shader' | 'cpu') =>
      createElement(
        MD2Instances,
        { ref: body, model, limit: 4, pose },
        createElement(MD2Instance, { animation: 'run' }),
        createElement(MD2Instances, { ref: weapon, model: weaponModel, sync: true }),
      )
    const r = await mount(scene('cpu'))
    const made = body.current
    expect([body.current!.pose, weapon.current!.pose]).toEqual(['cpu', 'cpu'])
    await r.update(scene('shader'))
    expect(body.current).toBe(made)
    expect([body.current!.pose, weapon.current!.pose]).toEqual(['shader', 'shader'])
    await r.update(scene())
    expect([body.current!.pose, weapon.current!.pose]).toEqual(['auto', 'auto'])
    await r.unmount()
  })
})
