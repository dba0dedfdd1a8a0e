/**
 * The per-frame path of <MD2Model>: it allocates nothing, and an instance whose frame does not change
 * (paused, a still frame, between keyframes without interpolation) or that is out of view writes
 * nothing and uploads nothing. Instances of one model share every attribute that does not change.
 */
import { useThree, type RootState } from '@react-three/fiber'
import ReactThreeTestRenderer from '@react-three/test-renderer'
import { createRef, type ReactNode } from 'react'
import { BufferAttribute, type BufferGeometry, type Group, type Mesh, type MeshLambertMaterial, Texture } from 'three'
import { afterEach, describe, expect, it } from 'vitest'
import { blendVerticesYUp } from '../../src/core/animation/blendVertices'
import { buildVertexLayout } from '../../src/core/format/vertexLayout'
import { parseMD2 } from '../../src/core/format/parseMD2'
import type { MD2AnimationController } from '../../src/core/animation/MD2AnimationController'
import { MD2BlobShadow } from '../../src/react/looks/MD2BlobShadow'
import { MD2Model } from '../../src/react/MD2Model'
import { MD2Shell } from '../../src/react/looks/MD2Shell'
import { MD2Quake2Lighting } from '../../src/react/looks/MD2Quake2Lighting'
import { useMD2Animation } from '../../src/react/useMD2Animation'
import { readAsset } from '../support/assets'
import { bytesPerCall, settled } from '../support/alloc'

const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2').slice(), { name: 'ogro/tris.MD2' })

type Renderer = Awaited<ReturnType<typeof ReactThreeTestRenderer.create>>
let renderer: Renderer | undefined
afterEach(async () => {
  await renderer?.unmount()
  renderer = undefined
})

/** Mounts `children` and hands back the root store's getter. */
async function mount(children: ReactNode): Promise<() => RootState> {
  let get: (() => RootState) | undefined
  function Grab() {
    get = useThree((state) => state.get)
    return null
  }
  renderer = await ReactThreeTestRenderer.create(
    <>
      <Grab />
      {children}
    </>,
  )
  return get!
}

/**
 * Calls every useFrame callback `frames` times, frame by frame, as fiber's loop does (the test
 * renderer's advanceFrames allocates a promise per call, which would hide ours).
 */
function tick(get: () => RootState, frames: number, delta = 1 / 60): void {
  const state = get()
  const subscribers = state.internal.subscribers
  for (let f = 0; f < frames; f++) {
    for (let i = 0; i < subscribers.length; i++) subscribers[i]!.ref.current(state, delta)
  }
}

/** No render happens in the test renderer: bring world matrices up to date as gl.render would. */
function updateMatrices(get: () => RootState): void {
  const { scene, camera } = get()
  scene.updateMatrixWorld()
  camera.updateMatrixWorld()
}

/** Bytes allocated per call of `frame`, over 50 frames, once the heap has settled. */
function bytesPerFrame(frame: () => void): Promise<number> {
  return settled(() => bytesPerCall(frame, 50), frame)
}

function geometryOf(group: Group): BufferGeometry {
  return (group.children[0] as Mesh).geometry
}
function versions(group: Group): number[] {
  const geometry = geometryOf(group)
  return ['position', 'normal'].map((name) => (geometry.getAttribute(name) as BufferAttribute).version)
}

describe('per-frame allocation', () => {
  it('the allocation counter sees an allocation of a few bytes per call (the check can fail)', () => {
    const sink: object[] = [{}]
    const perCall = bytesPerCall(() => {
      sink[0] = { a: 1 }
    }, 2000)
    expect(perCall).toBeGreaterThanOrEqual(12)
    expect(
      bytesPerCall(() => {
        sink[0] = sink[0]!
      }, 2000),
    ).toBeLessThan(1)
  })

  it('40 animated instances (Ogro and weapon, lerped and snapped), the camera moving, allocate nothing per frame', async () => {
    const weapon = parseMD2(readAsset('quake2/ogro/weapon.md2').slice(), { name: 'ogro/weapon.md2' })
    const get = await mount(
      Array.from({ length: 40 }, (_, i) => (
        <MD2Model
          key={i}
          model={i % 4 === 3 ? weapon : ogro}
          animation={i % 2 === 0 ? 'run' : 'attack'}
          interpolate={i % 5 !== 0}
          speed={1 + (i % 3) * 0.37}
          position={[i * 3, 0, -50]}
        />
      )),
    )
    updateMatrices(get)
    // The camera sways, so the shared view frustum is rebuilt every frame; a typed array holds its place, as a
    // captured number would be boxed on every write (the test's own garbage).
    const { camera } = get()
    const sway = new Float64Array(1)
    const frame = () => {
      sway[0] = sway[0]! + 0.01
      camera.position.x = Math.sin(sway[0]!) * 20
      camera.updateMatrixWorld()
      tick(get, 1)
    }
    for (let i = 0; i < 1000; i++) frame()
    const perFrame = await bytesPerFrame(frame)
    // One object a frame would be ≥ 16 bytes; anything per instance ≥ 40 × 16.
    expect(perFrame).toBeLessThan(8)
  })

  it('shells and blob shadows (written in the pass of the turning bodies they follow) allocate nothing per frame', async () => {
    const get = await mount(
      Array.from({ length: 12 }, (_, i) => (
        <MD2Model key={i} model={ogro} animation={i % 2 === 0 ? 'run' : 'attack'} position={[i * 3, 0, -50]} rotation-y={i * 0.4}>
          {i % 3 !== 1 && <MD2BlobShadow floor={i % 2 === 0 ? -24 : undefined} />}
          {i % 3 !== 2 && <MD2Shell color={i % 2 === 0 ? 'blue' : ['red', 'green']} />}
        </MD2Model>
      )),
    )
    updateMatrices(get)
    tick(get, 1000)
    const perFrame = await bytesPerFrame(() => tick(get, 1))
    expect(perFrame).toBeLessThan(8)
  })

  it('crossfading instances driven by controllers, with synced weapons, allocate nothing per frame', async () => {
    const weapon = parseMD2(readAsset('quake2/ogro/weapon.md2').slice(), { name: 'ogro/weapon.md2' })
    const controllers: MD2AnimationController[] = []
    function Crossfading({ index }: { index: number }) {
      const animation = useMD2Animation(ogro, { animation: 'stand' })
      controllers[index] = animation
      return (
        <MD2Model model={ogro} controller={animation} position={[index * 3, 0, -50]}>
          <MD2Model model={weapon} sync />
        </MD2Model>
      )
    }
    const get = await mount(Array.from({ length: 20 }, (_, i) => <Crossfading key={i} index={i} />))
    updateMatrices(get)
    tick(get, 10)
    // Fades far longer than the measurement, so every frame measured is mid-fade.
    controllers.forEach((controller, i) => controller.play(i % 2 ? 'run' : 'attack', { crossfade: 1000, speed: 1 + i / 7 }))
    tick(get, 1000)
    expect(controllers.every((controller) => controller.pose.fadeWeight > 0)).toBe(true)
    const perFrame = await bytesPerFrame(() => tick(get, 1))
    expect(perFrame).toBeLessThan(8)
  })

  for (const [label, look] of [
    ['Quake II lighting, turning through the light rows', <MD2Quake2Lighting />],
    ['glowing Quake II lighting', <MD2Quake2Lighting glow />],
    [
      'shells and blob shadows',
      <>
        <MD2Shell color="blue" />
        <MD2BlobShadow />
      </>,
    ],
  ] as const) {
    it(`${label}: nothing allocated per frame`, async () => {
      const groups: Group[] = []
      const get = await mount(
        Array.from({ length: 12 }, (_, i) => (
          <MD2Model
            key={i}
            ref={(group: Group | null) => {
              if (group) groups[i] = group
            }}
            model={ogro}
            animation={i % 2 ? 'run' : 'attack'}
            position={[i * 3, 0, -50]}
          >
            {look}
          </MD2Model>
        )),
      )
      // The yaw lives in a typed array: a captured number would be boxed on every write (the test's own garbage).
      const yaw = new Float64Array(1)
      // Each frame the models turn (relighting across the 16 rows) and their matrices are brought up to date.
      const frame = () => {
        yaw[0] = yaw[0]! + 0.05
        for (let i = 0; i < groups.length; i++) groups[i]!.rotation.y = yaw[0]! + i
        updateMatrices(get)
        tick(get, 1)
      }
      for (let i = 0; i < 1000; i++) frame()
      const perFrame = await bytesPerFrame(frame)
      expect(perFrame).toBeLessThan(8)
    })
  }

  it('the kernel allocates nothing, on frames read in place and on unaligned frames (read from a copy made once)', async () => {
    const bytes = readAsset('quake2/ogro/tris.MD2')
    const shifted = new Uint8Array(bytes.length + 1)
    shifted.set(bytes, 1)
    for (const model of [ogro, parseMD2(shifted.subarray(1))]) {
      const layout = buildVertexLayout(model)
      const positions = new Float32Array(layout.vertexCount * 3)
      const normals = new Float32Array(layout.vertexCount * 3)
      const blend = { from: 3, to: 4, t: 0.5 }
      const target = { xyzIndex: layout.xyzIndex, positions, normals }
      const call = () => {
        blend.t = (blend.t + 0.013) % 1
        blendVerticesYUp(model, blend, target)
      }
      for (let i = 0; i < 5000; i++) call()
      expect(await settled(() => bytesPerCall(call, 200), call)).toBeLessThan(1)
    }
  })
})

describe('blend kernel paths', () => {
  it('aligned frames (read in place) and unaligned ones (read from a copy) write identical floats', () => {
    const bytes = readAsset('quake2/ogro/tris.MD2')
    const shifted = new Uint8Array(bytes.length + 3)
    shifted.set(bytes, 3)
    const unaligned = parseMD2(shifted.subarray(3))
    expect(ogro.frames[0]!.vertices.byteOffset % 4).toBe(0)
    expect(unaligned.frames[0]!.vertices.byteOffset % 4).not.toBe(0)
    const layout = buildVertexLayout(ogro)
    const out = () => [new Float32Array(layout.vertexCount * 3), new Float32Array(layout.vertexCount * 3)] as const
    for (const [from, to, t] of [
      [0, 1, 0],
      [10, 11, 0.25],
      [40, 45, 0.999],
      [197, 0, 0.5],
    ] as const) {
      const [pa, na] = out()
      const [pb, nb] = out()
      const [pc] = out()
      const { xyzIndex } = layout
      blendVerticesYUp(ogro, { from, to, t }, { xyzIndex, positions: pa, normals: na })
      blendVerticesYUp(unaligned, { from, to, t }, { xyzIndex, positions: pb, normals: nb })
      blendVerticesYUp(ogro, { from, to, t }, { xyzIndex, positions: pc })
      expect(pb).toEqual(pa)
      expect(nb).toEqual(na)
      expect(pc).toEqual(pa)
    }
  })
})

describe('nothing written, nothing uploaded, when nothing changes', () => {
  it('a paused instance, a still frame and an off-screen instance keep their version counters; a playing one does not', async () => {
    const paused = createRef<Group>()
    const still = createRef<Group>()
    const away = createRef<Group>()
    const playing = createRef<Group>()
    const get = await mount(
      <>
        <MD2Model ref={paused} model={ogro} animation="run" playing={false} position={[0, 0, -100]} />
        <MD2Model ref={still} model={ogro} frame={12} position={[0, 0, -100]} />
        <MD2Model ref={away} model={ogro} animation="run" position={[0, 0, 5000]} />
        <MD2Model ref={playing} model={ogro} animation="run" position={[0, 0, -100]} />
      </>,
    )
    updateMatrices(get)
    tick(get, 2)
    const before = [paused, still, away, playing].map((ref) => versions(ref.current!))
    const positionsBefore = geometryOf(away.current!).getAttribute('position').array.slice()
    tick(get, 120)
    const after = [paused, still, away, playing].map((ref) => versions(ref.current!))
    expect(after[0]).toEqual(before[0])
    expect(after[1]).toEqual(before[1])
    expect(after[2]).toEqual(before[2])
    expect(geometryOf(away.current!).getAttribute('position').array).toEqual(positionsBefore)
    // The playing one writes (and flags for upload) every frame: 120 frames at 60 fps, lerped.
    expect(after[3]![0]! - before[3]![0]!).toBe(120)
    expect(after[3]![1]! - before[3]![1]!).toBe(120)

    // Brought into view, the off-screen one catches up on its next tick.
    away.current!.position.set(0, 0, -100)
    updateMatrices(get)
    tick(get, 1)
    expect(versions(away.current!)[0]).toBe(before[2]![0]! + 1)
  })

  it('without interpolation an instance writes once per keyframe, not once per frame', async () => {
    const ref = createRef<Group>()
    const get = await mount(<MD2Model ref={ref} model={ogro} animation="run" interpolate={false} position={[0, 0, -100]} />)
    updateMatrices(get)
    tick(get, 1)
    const before = versions(ref.current!)[0]!
    // 2 seconds at 60 fps of a 10 fps animation: 20 keyframe changes, 120 frames.
    tick(get, 120)
    const writes = versions(ref.current!)[0]! - before
    expect(writes).toBeGreaterThanOrEqual(19)
    expect(writes).toBeLessThanOrEqual(21)
  })

  it('normals are neither allocated nor written for a MeshBasicMaterial', async () => {
    const { MeshBasicMaterial } = await import('three')
    const ref = createRef<Group>()
    const get = await mount(<MD2Model ref={ref} model={ogro} animation="run" material={new MeshBasicMaterial()} position={[0, 0, -100]} />)
    updateMatrices(get)
    tick(get, 10)
    expect(geometryOf(ref.current!).getAttribute('normal')).toBeUndefined()
  })
})

describe('instances share what does not change', () => {
  it('index, uv, bounds source and skin texture are shared; only position and normal are per instance', async () => {
    const skin = new Texture()
    const a = createRef<Group>()
    const b = createRef<Group>()
    await mount(
      <>
        <MD2Model ref={a} model={ogro} skin={skin} animation="run" />
        <MD2Model ref={b} model={ogro} skin={skin} animation="attack" />
      </>,
    )
    const ga = geometryOf(a.current!)
    const gb = geometryOf(b.current!)
    expect(ga).not.toBe(gb)
    expect(ga.index).toBe(gb.index)
    expect(ga.getAttribute('uv')).toBe(gb.getAttribute('uv'))
    expect(ga.getAttribute('position')).not.toBe(gb.getAttribute('position'))
    expect(ga.getAttribute('position').array.buffer).not.toBe(gb.getAttribute('position').array.buffer)
    const materials = [a, b].map((ref) => (ref.current!.children[0] as Mesh).material as MeshLambertMaterial)
    expect(materials[0]!.map).toBe(skin)
    expect(materials[1]!.map).toBe(skin)
    // Per instance: 6 floats per vertex and nothing else of any size.
    const { vertexCount } = buildVertexLayout(ogro)
    const own = ['position', 'normal'].map((name) => (ga.getAttribute(name) as BufferAttribute).array.byteLength)
    expect(own).toEqual([vertexCount * 12, vertexCount * 12])
    expect(ga.getAttribute('position')).toBeInstanceOf(BufferAttribute)
  })
})
