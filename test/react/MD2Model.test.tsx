import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Suspense, createRef } from 'react'
import { BufferGeometry, Material, MeshBasicMaterial, Vector3, type BufferAttribute, type Group, type Mesh } from 'three'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  blendFrames,
  buildVertexLayout,
  decodeFrame,
  parseAnimationTable,
  parseMD2,
  type MD2ModelData as Model,
} from '../../src/core/internal'
import { MD2Model } from '../../src/react/MD2Model'
import { useMD2 } from '../../src/react/loading/useMD2'
import { getMD2RenderData } from '../../src/three/mesh/MD2Geometry'
import { ASSETS_DIR, readAsset } from '../support/assets'
import { mount } from '../support/render'

const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2'), { name: 'ogro/tris.MD2' })
const soldier = parseMD2(readAsset('ufoai/soldier-male/body.md2'), { name: 'soldier/body.md2' })
const soldierTable = parseAnimationTable(readFileSync(join(ASSETS_DIR, 'ufoai/soldier-male/body.anm'), 'utf8'))

afterEach(async () => {
  vi.restoreAllMocks()
})

const meshOf = (group: Group) => group.children[0] as Mesh
const positionAttribute = (group: Group) => (meshOf(group).geometry as BufferGeometry).getAttribute('position') as BufferAttribute

/** What the mesh should hold: the core's blend, per output vertex, turned to Y-up (X, Y, Z) = (y, z, x). */
function expectPose(group: Group, model: Model, from: number, to: number, t: number): void {
  const { xyzIndex } = buildVertexLayout(model)
  const quake = blendFrames(model, from, to, t)
  const positions = positionAttribute(group).array as Float32Array
  expect(positions.length).toBe(xyzIndex.length * 3)
  let worst = 0
  for (let i = 0; i < xyzIndex.length; i++) {
    const v = xyzIndex[i]!
    worst = Math.max(
      worst,
      Math.abs(positions[i * 3]! - quake[v * 3 + 1]!),
      Math.abs(positions[i * 3 + 1]! - quake[v * 3 + 2]!),
      Math.abs(positions[i * 3 + 2]! - quake[v * 3]!),
    )
  }
  expect(worst).toBeLessThan(1e-3)
}

describe('<MD2Model>', () => {
  it('mounts a group holding a mesh that shows the first frame of the first animation', async () => {
    const ref = createRef<Group>()
    await mount(<MD2Model ref={ref} model={ogro} />)
    expect(ref.current!.type).toBe('Group')
    expect(meshOf(ref.current!).type).toBe('Mesh')
    expectPose(ref.current!, ogro, 0, 0, 0)
  })

  it('advancing frames blends the two keyframes by elapsed time', async () => {
    const ref = createRef<Group>()
    const r = await mount(<MD2Model ref={ref} model={ogro} animation="run" />)
    expectPose(ref.current!, ogro, 40, 40, 0)
    await r.advanceFrames(3, 1 / 60) // 0.05 s at 10 fps: halfway from 40 to 41
    expectPose(ref.current!, ogro, 40, 41, 0.5)
    await r.advanceFrames(6, 1 / 60) // 0.15 s: halfway from 41 to 42
    expectPose(ref.current!, ogro, 41, 42, 0.5)
  })

  it('switching animation restarts on the new first frame', async () => {
    const ref = createRef<Group>()
    const r = await mount(<MD2Model ref={ref} model={ogro} animation="run" />)
    await r.advanceFrames(4, 1 / 60)
    await r.update(<MD2Model ref={ref} model={ogro} animation="attack" />)
    await r.advanceFrames(1, 0.02)
    expectPose(ref.current!, ogro, 46, 47, 0.2)
  })

  it('selects animations by index and by frame range', async () => {
    const ref = createRef<Group>()
    const r = await mount(<MD2Model ref={ref} model={ogro} animation={2} />)
    await r.advanceFrames(1, 0.01)
    expectPose(ref.current!, ogro, 46, 47, 0.1)
    await r.update(<MD2Model ref={ref} model={ogro} animation={{ start: 150, end: 152 }} />)
    await r.advanceFrames(1, 0.25)
    expectPose(ref.current!, ogro, 152, 150, 0.5)
  })

  it('playing={false} freezes the pose and uploads nothing', async () => {
    const ref = createRef<Group>()
    const r = await mount(<MD2Model ref={ref} model={ogro} animation="run" />)
    await r.advanceFrames(2, 1 / 60)
    await r.update(<MD2Model ref={ref} model={ogro} animation="run" playing={false} />)
    await r.advanceFrames(1, 1 / 60)
    const attribute = positionAttribute(ref.current!)
    const before = (attribute.array as Float32Array).slice()
    const version = attribute.version
    await r.advanceFrames(20, 1 / 60)
    expect(Array.from(attribute.array as Float32Array)).toEqual(Array.from(before))
    expect(attribute.version).toBe(version)
  })

  it('interpolate={false} snaps from keyframe to keyframe', async () => {
    const ref = createRef<Group>()
    const r = await mount(<MD2Model ref={ref} model={ogro} animation="run" interpolate={false} />)
    await r.advanceFrames(1, 0.08)
    expectPose(ref.current!, ogro, 40, 40, 0)
    await r.advanceFrames(1, 0.04)
    expectPose(ref.current!, ogro, 41, 41, 0)
  })

  it('speed and fps scale playback', async () => {
    const fast = createRef<Group>()
    const r = await mount(<MD2Model ref={fast} model={ogro} animation="run" speed={2} />)
    await r.advanceFrames(1, 0.075) // 1.5 keyframes
    expectPose(fast.current!, ogro, 41, 42, 0.5)
    await r.update(<MD2Model ref={fast} model={ogro} animation="run" fps={20} />)
    await r.advanceFrames(1, 0.025) // keeps its place; 0.5 more keyframes
    expectPose(fast.current!, ogro, 42, 43, 0)
  })

  it('frame shows one frame still; a frame outside the model shows the nearest and warns once, naming the range', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const ref = createRef<Group>()
    const r = await mount(<MD2Model ref={ref} model={ogro} frame={100} />)
    await r.advanceFrames(5, 1 / 60)
    expectPose(ref.current!, ogro, 100, 100, 0)
    await r.update(<MD2Model ref={ref} model={ogro} frame={500} />)
    await r.advanceFrames(5, 1 / 60)
    const last = ogro.header.numFrames - 1
    expectPose(ref.current!, ogro, last, last, 0)
    await r.update(<MD2Model ref={ref} model={ogro} frame={Number.NaN} />)
    await r.advanceFrames(2, 1 / 60)
    expectPose(ref.current!, ogro, 0, 0, 0)
    const warnings = warn.mock.calls.map(([message]) => String(message))
    expect(warnings.filter((message) => message.includes(`frame={500} is not one of its frames (0–${last}`))).toHaveLength(1)
    expect(warnings.filter((message) => message.includes('frame={NaN}'))).toHaveLength(1)
  })

  it('loop={false} stops on the last frame and calls onAnimationEnd once', async () => {
    const onEnd = vi.fn()
    const ref = createRef<Group>()
    const r = await mount(<MD2Model ref={ref} model={ogro} animation="jump" loop={false} onAnimationEnd={onEnd} />)
    await r.advanceFrames(30, 1 / 30)
    expect(onEnd).toHaveBeenCalledTimes(1)
    expect(onEnd.mock.calls[0]![0]).toMatchObject({ name: 'jump', start: 66, end: 71 })
    expectPose(ref.current!, ogro, 71, 71, 0)
  })

  it('an unknown animation warns once, listing the available names, and plays the first', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const ref = createRef<Group>()
    const r = await mount(<MD2Model ref={ref} model={ogro} animation="moonwalk" />)
    await r.advanceFrames(3, 1 / 60)
    await r.update(<MD2Model ref={ref} model={ogro} animation="moonwalk" speed={1.5} />)
    const calls = warn.mock.calls.filter(([message]) => String(message).includes('moonwalk'))
    expect(calls).toHaveLength(1)
    expect(String(calls[0]![0])).toMatch(/Available: stand, run, attack, paina/)
    expectPose(ref.current!, ogro, 0, 1, 0.5)
  })

  it('plays an animation table on the 1,007-frame UFO:AI soldier', async () => {
    const ref = createRef<Group>()
    const r = await mount(<MD2Model ref={ref} model={soldier} animationTable={soldierTable} animation="walk0" />)
    expectPose(ref.current!, soldier, 174, 174, 0)
    await r.advanceFrames(1, 0.05) // 30 fps in the .anm: 1.5 keyframes
    expectPose(ref.current!, soldier, 175, 176, 0.5)
  })

  it('instances share index, uvs and bounds but each owns its position and normal buffers', async () => {
    const a = createRef<Group>()
    const b = createRef<Group>()
    await mount(
      <>
        <MD2Model ref={a} model={ogro} animation="run" />
        <MD2Model ref={b} model={ogro} animation="stand" />
      </>,
    )
    const ga = meshOf(a.current!).geometry
    const gb = meshOf(b.current!).geometry
    expect(ga).not.toBe(gb)
    expect(ga.index).toBe(gb.index)
    expect(ga.getAttribute('uv')).toBe(gb.getAttribute('uv'))
    expect(ga.getAttribute('position').array).not.toBe(gb.getAttribute('position').array)
    expect(ga.getAttribute('normal').array).not.toBe(gb.getAttribute('normal').array)
    expect(ga.index).toBe(getMD2RenderData(ogro).index)
  })

  it('the bounding sphere holds every vertex of every frame', async () => {
    const ref = createRef<Group>()
    await mount(<MD2Model ref={ref} model={ogro} />)
    const sphere = meshOf(ref.current!).geometry.boundingSphere!
    const point = new Vector3()
    for (let f = 0; f < ogro.frames.length; f++) {
      const quake = decodeFrame(ogro, f)
      for (let v = 0; v < 358; v++) {
        point.set(quake[v * 3 + 1]!, quake[v * 3 + 2]!, quake[v * 3]!)
        expect(sphere.distanceToPoint(point)).toBeLessThanOrEqual(1e-4)
      }
    }
  })

  it('spreads other props onto the root group and applies scale to the model', async () => {
    const ref = createRef<Group>()
    await mount(<MD2Model ref={ref} model={ogro} position={[1, 2, 3]} name="hero" scale={0.5} castShadow />)
    expect(ref.current!.position.toArray()).toEqual([1, 2, 3])
    expect(ref.current!.name).toBe('hero')
    expect(meshOf(ref.current!).scale.toArray()).toEqual([0.5, 0.5, 0.5])
    expect(meshOf(ref.current!).castShadow).toBe(true)
  })

  it('unmount disposes the geometry and material it created, never a user material or the shared cache', async () => {
    const geometryDispose = vi.spyOn(BufferGeometry.prototype, 'dispose')
    const materialDispose = vi.spyOn(Material.prototype, 'dispose')
    const userMaterial = new MeshBasicMaterial()
    const own = createRef<Group>()
    const custom = createRef<Group>()
    const r = await mount(
      <>
        <MD2Model ref={own} model={ogro} />
        <MD2Model ref={custom} model={ogro} material={userMaterial} />
      </>,
    )
    const ownGeometry = meshOf(own.current!).geometry
    const ownMaterial = meshOf(own.current!).material as Material
    // An unlit user material needs no normals: none are allocated or written.
    expect(meshOf(custom.current!).geometry.getAttribute('normal')).toBeUndefined()
    await r.unmount()
    const disposedGeometries = geometryDispose.mock.contexts
    expect(disposedGeometries).toContain(ownGeometry)
    expect(disposedGeometries).toHaveLength(2)
    expect(materialDispose.mock.contexts).toEqual([ownMaterial])
    expect(getMD2RenderData(ogro).index.count).toBe(ogro.header.numTris * 3)
  })

  it('loads from a URL with Suspense (useMD2), once for several components', async () => {
    const bytes = readAsset('quake2/ogro/tris.MD2')
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response(bytes.slice()))
    const url = 'http://localhost/models/ogro-suspense.md2'
    const a = createRef<Group>()
    const b = createRef<Group>()
    const r = await mount(
      <Suspense fallback={null}>
        <MD2Model ref={a} url={url} animation="run" />
        <MD2Model ref={b} url={url} animation="stand" />
      </Suspense>,
    )
    await vi.waitFor(async () => {
      await r.advanceFrames(1, 0)
      expect(a.current).toBeTruthy()
    })
    const md2Fetches = fetchMock.mock.calls.filter(([input]) => String(input instanceof Request ? input.url : input).endsWith('.md2'))
    expect(md2Fetches).toHaveLength(1)
    const model = useMD2.peek(url)!
    expect(model.name).toBe(url)
    expectPose(a.current!, model, 40, 40, 0)
    useMD2.clear(url)
    expect(useMD2.peek(url)).toBeUndefined()
  })
})
