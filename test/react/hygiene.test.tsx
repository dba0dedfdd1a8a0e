/**
 * Resource hygiene (issue 6): `<MD2Model>` disposes every geometry and material it created, and
 * nothing it did not create (the shared parsed model and its index/uv attributes, a caller's
 * material or texture); `useMD2.clear(url)` frees the cache entry so the next use loads again.
 *
 * Creation is counted where it happens, including renders React throws away: every geometry
 * `createMD2Geometry` makes calls `setIndex` with the model's shared index attribute, and every
 * `MeshLambertMaterial` calls `setValues` from its constructor. Disposal is counted through the
 * prototypes' `dispose`, and cross-checked with a real `WebGLRenderer`'s `info.memory`. What a
 * render React discarded made (a sibling suspended on its skin) never reaches the scene: the test
 * proves the garbage collector frees it, so nothing is left holding GPU memory.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import ReactThreeTestRenderer from '@react-three/test-renderer'
import { useThree, type RootState } from '@react-three/fiber'
import { Suspense, type ReactNode } from 'react'
import {
  BufferGeometry,
  DataTexture,
  Material,
  MeshBasicMaterial,
  MeshLambertMaterial,
  Texture,
  type BufferAttribute,
  type Mesh,
} from 'three'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { parseMD2 } from '../../src/core/format/parseMD2'
import type { MD2ModelData } from '../../src/core/format/types'
import { MD2Model } from '../../src/react/MD2Model'
import { useMD2 } from '../../src/react/loading/useMD2'
import { useMD2Skin } from '../../src/react/loading/useMD2Skin'
import { getMD2RenderData } from '../../src/three/mesh/MD2Geometry'
import { ASSETS_DIR, readAsset } from '../support/assets'
import { mount } from '../support/render'
import { collected } from '../support/gc'

type Renderer = Awaited<ReturnType<typeof ReactThreeTestRenderer.create>>

/**
 * fetch for three's FileLoader in Node: `http://md2.test/<path>` serves `assets/<path>` (models, and
 * the skins the component looks up next to them), 404 otherwise. Every URL asked is recorded.
 */
const fetchCalls: string[] = []
const modelFetches = () => fetchCalls.filter((url) => /\.md2$/i.test(url))
function fakeFetch(input: RequestInfo | URL): Promise<unknown> {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
  fetchCalls.push(url)
  const path = url.replace('http://md2.test/', '')
  if (!existsSync(join(ASSETS_DIR, path))) {
    return Promise.resolve({ status: 404, statusText: 'Not Found', url, headers: new Headers(), body: undefined })
  }
  const bytes = readAsset(path).slice()
  // No body stream: FileLoader then reads arrayBuffer() directly (Node has no ProgressEvent).
  return Promise.resolve({
    status: 200,
    statusText: 'OK',
    url,
    headers: new Headers(),
    body: undefined,
    arrayBuffer: async () => bytes.buffer,
  })
}

/** Lets pending loads, timers and React's retries run. */
async function settle(ms = 30): Promise<void> {
  await ReactThreeTestRenderer.act(async () => {
    await new Promise((resolve) => setTimeout(resolve, ms))
  })
}

/** Counts of what the component created and what got disposed, identity by identity. */
interface Ledger {
  geometries: Set<BufferGeometry>
  materials: Set<Material>
  disposedGeometries: Map<BufferGeometry, number>
  disposedMaterials: Map<Material, number>
  disposedTextures: Texture[]
}

function watch(sharedIndexes: () => Set<BufferAttribute>): Ledger {
  const ledger: Ledger = {
    geometries: new Set(),
    materials: new Set(),
    disposedGeometries: new Map(),
    disposedMaterials: new Map(),
    disposedTextures: [],
  }
  const setIndex = BufferGeometry.prototype.setIndex
  vi.spyOn(BufferGeometry.prototype, 'setIndex').mockImplementation(function (this: BufferGeometry, index) {
    if (index !== null && !Array.isArray(index) && sharedIndexes().has(index as BufferAttribute)) ledger.geometries.add(this)
    return setIndex.call(this, index)
  })
  const setValues = Material.prototype.setValues
  vi.spyOn(Material.prototype, 'setValues').mockImplementation(function (this: Material, values) {
    if (this instanceof MeshLambertMaterial) ledger.materials.add(this)
    return setValues.call(this, values)
  })
  const disposeGeometry = BufferGeometry.prototype.dispose
  vi.spyOn(BufferGeometry.prototype, 'dispose').mockImplementation(function (this: BufferGeometry) {
    ledger.disposedGeometries.set(this, (ledger.disposedGeometries.get(this) ?? 0) + 1)
    return disposeGeometry.call(this)
  })
  const disposeMaterial = Material.prototype.dispose
  vi.spyOn(Material.prototype, 'dispose').mockImplementation(function (this: Material) {
    ledger.disposedMaterials.set(this, (ledger.disposedMaterials.get(this) ?? 0) + 1)
    return disposeMaterial.call(this)
  })
  const disposeTexture = Texture.prototype.dispose
  vi.spyOn(Texture.prototype, 'dispose').mockImplementation(function (this: Texture) {
    ledger.disposedTextures.push(this)
    return disposeTexture.call(this)
  })
  return ledger
}

/**
 * Everything the component made that reached the scene was disposed exactly once, and nothing else
 * was disposed; what discarded renders made never reached the scene and is freed by the garbage
 * collector. Returns the number of discarded geometries.
 */
async function expectClean(ledger: Ledger, inScene: { geometries: Set<BufferGeometry>; materials: Set<Material> }): Promise<number> {
  const { geometries, materials, disposedGeometries, disposedMaterials } = ledger
  const committed = [...inScene.geometries]
  const ownCommitted = [...inScene.materials].filter((material) => materials.has(material))
  expect(committed.every((geometry) => geometries.has(geometry))).toBe(true)
  expect(committed.filter((geometry) => disposedGeometries.get(geometry) !== 1).length, 'scene geometries not disposed exactly once').toBe(
    0,
  )
  expect(ownCommitted.filter((material) => disposedMaterials.get(material) !== 1).length, 'own materials not disposed exactly once').toBe(0)
  expect([...disposedGeometries.keys()].filter((geometry) => !inScene.geometries.has(geometry))).toEqual([])
  expect([...disposedMaterials.keys()].filter((material) => !ownCommitted.includes(material))).toEqual([])
  expect(ledger.disposedTextures).toEqual([])
  const discarded = [
    ...[...geometries].filter((geometry) => !disposedGeometries.has(geometry)),
    ...[...materials].filter((material) => !disposedMaterials.has(material)),
  ]
  expect(
    discarded.filter((object) => inScene.geometries.has(object as BufferGeometry) || inScene.materials.has(object as Material)),
  ).toEqual([])
  const refs = discarded.map((object) => new WeakRef(object))
  discarded.length = 0
  geometries.clear()
  materials.clear()
  disposedGeometries.clear()
  disposedMaterials.clear()
  inScene.geometries.clear()
  inScene.materials.clear()
  vi.clearAllMocks() // the spies' call records hold every `this` and result
  vi.restoreAllMocks()
  expect(await collected(refs), 'objects from discarded renders still referenced').toBe(refs.length)
  return refs.length
}

/** Grabs the root state (renderer, scene, camera) from inside the canvas. */
function Capture({ into }: { into: { state?: RootState } }): null {
  into.state = useThree()
  return null
}

function fingerprint(model: MD2ModelData): string {
  let hash = 0
  const mix = (bytes: ArrayLike<number>) => {
    for (let i = 0; i < bytes.length; i++) hash = (Math.imul(hash, 31) + bytes[i]!) | 0
  }
  mix(model.triangles)
  mix(model.st)
  for (const frame of model.frames) mix(frame.vertices)
  return `${hash}:${model.frames.length}:${model.animations.length}`
}

let renderer: Renderer | undefined
beforeEach(() => {
  fetchCalls.length = 0
  vi.stubGlobal('fetch', fakeFetch)
})
afterEach(async () => {
  await renderer?.unmount()
  renderer = undefined
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
  useMD2.clear()
})

const WEAPON = 'http://md2.test/quake2/ogro/weapon.md2'

describe('mounting and unmounting 500 <MD2Model>s', () => {
  it('disposes every geometry and material it created, and nothing shared or given', async () => {
    const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2'), { name: 'ogro' })
    const ogroData = getMD2RenderData(ogro)
    const ogroPrint = fingerprint(ogro)
    // The URL-loaded model, through the shared Suspense cache; its skin is looked up next to it.
    const fromUrl = await useMD2.preload(WEAPON)
    const urlData = getMD2RenderData(fromUrl)
    const urlPrint = fingerprint(fromUrl)
    expect(modelFetches()).toEqual([WEAPON])

    const userMaterial = new MeshLambertMaterial({ color: 'red' })
    const basicMaterial = new MeshBasicMaterial()
    const skin = new DataTexture(new Uint8Array(4), 1, 1)
    const givenDisposed: string[] = []
    userMaterial.addEventListener('dispose', () => givenDisposed.push('userMaterial'))
    basicMaterial.addEventListener('dispose', () => givenDisposed.push('basicMaterial'))
    skin.addEventListener('dispose', () => givenDisposed.push('skin'))
    const shared = { index: [ogroData.index, urlData.index], uv: [ogroData.uv, urlData.uv] }
    const sharedArrays = [...shared.index, ...shared.uv].map((attribute) => attribute.array)

    // Counted after the user material exists: only the component's own materials are in the ledger.
    const ledger = watch(() => new Set(shared.index))
    const inScene = { geometries: new Set<BufferGeometry>(), materials: new Set<Material>() }
    const capture: { state?: RootState } = {}
    renderer = await mount(<Capture into={capture} />)
    const gl = capture.state!.gl
    const baseline = { ...gl.info.memory }

    /** Instance i of a batch: a mix of sources, skins and materials, like a real scene. */
    const instance = (i: number): ReactNode => {
      switch (i % 5) {
        case 0:
          return <MD2Model key={i} model={ogro} animation="run" />
        case 1:
          // Its skin 0 (players/ogro/weapon.pcx) is found next to the URL and shared through the skin cache.
          return <MD2Model key={i} url={WEAPON} wireframe color="blue" />
        case 2:
          return <MD2Model key={i} model={ogro} material={userMaterial} />
        case 3:
          return <MD2Model key={i} model={ogro} material={basicMaterial} skin={skin} />
        default:
          return <MD2Model key={i} model={fromUrl} skin={skin} frame={3} />
      }
    }
    const BATCH = 50
    let mounted = 0
    let sharedSkin: Texture | undefined
    for (let batch = 0; batch < 10; batch++) {
      const keys = Array.from({ length: BATCH }, (_, i) => batch * BATCH + i)
      await renderer.update(
        <>
          <Capture into={capture} />
          <Suspense fallback={null}>{keys.map(instance)}</Suspense>
        </>,
      )
      await settle()
      await renderer.advanceFrames(2, 1 / 30)
      // Draw once with a real WebGLRenderer (mock context): geometries reach the GPU bookkeeping.
      const { scene, camera } = capture.state!
      gl.render(scene, camera)
      const meshes: Mesh[] = []
      scene.traverse((object) => {
        if ((object as Mesh).isMesh) meshes.push(object as Mesh)
      })
      expect(meshes).toHaveLength(BATCH)
      for (const mesh of meshes) {
        inScene.geometries.add(mesh.geometry)
        inScene.materials.add(mesh.material as Material)
      }
      const urlSkins = new Set(
        meshes
          .filter(
            (mesh) => mesh.geometry.index === urlData.index && mesh.material instanceof MeshLambertMaterial && mesh.material.wireframe,
          )
          .map((mesh) => (mesh.material as MeshLambertMaterial).map),
      )
      expect(urlSkins.size).toBe(1)
      sharedSkin ??= [...urlSkins][0]!
      expect([...urlSkins][0]).toBe(sharedSkin)
      expect(gl.info.memory.geometries).toBeGreaterThanOrEqual(baseline.geometries + BATCH)
      mounted += BATCH
      await renderer.update(<Capture into={capture} />)
      // Everything this batch uploaded is released again, but the shared skin texture stays.
      expect(gl.info.memory.geometries).toBe(baseline.geometries)
    }
    await renderer.unmount()
    renderer = undefined
    expect(mounted).toBe(500)
    expect(inScene.geometries.size).toBe(500)
    const ownMaterials = [...inScene.materials].filter((material) => ledger.materials.has(material)).length
    expect(ownMaterials).toBe(300) // 2 instances in 5 bring their own material
    expect(sharedSkin).toBeInstanceOf(Texture)
    expect(useMD2Skin.peek('http://md2.test/quake2/ogro/weapon.pcx')).toBe(sharedSkin)

    await expectClean(ledger, inScene)
    expect(givenDisposed).toEqual([])
    // The shared cache is untouched: same model, same render data and attributes, same bytes.
    expect(useMD2.peek(WEAPON)).toBe(fromUrl)
    expect(getMD2RenderData(ogro)).toBe(ogroData)
    expect(getMD2RenderData(fromUrl)).toBe(urlData)
    expect([...shared.index, ...shared.uv].map((attribute) => attribute.array)).toEqual(sharedArrays)
    expect(ogroData.index.count).toBe(ogro.header.numTris * 3)
    expect(fingerprint(ogro)).toBe(ogroPrint)
    expect(fingerprint(fromUrl)).toBe(urlPrint)
    // One fetch of the model for all 100 URL instances, and each skin candidate at most once.
    expect(modelFetches()).toEqual([WEAPON])
    expect(new Set(fetchCalls).size).toBe(fetchCalls.length)
  })

  it('changing the material prop disposes the replaced own material, never the given one', async () => {
    const ogro = parseMD2(readAsset('quake2/ogro/weapon.md2'))
    const given = new MeshLambertMaterial()
    const ledger = watch(() => new Set([getMD2RenderData(ogro).index]))
    const givenDisposed = vi.fn()
    given.addEventListener('dispose', givenDisposed)
    const inScene = { geometries: new Set<BufferGeometry>(), materials: new Set<Material>() }
    const note = (r: Renderer) => {
      const mesh = r.scene.children[0]!.children[0]!.instance as Mesh
      inScene.geometries.add(mesh.geometry)
      inScene.materials.add(mesh.material as Material)
    }
    renderer = await mount(<MD2Model model={ogro} />)
    note(renderer)
    await renderer.update(<MD2Model model={ogro} material={given} />)
    note(renderer)
    await renderer.update(<MD2Model model={ogro} />)
    note(renderer)
    await renderer.update(<MD2Model model={ogro} material={new MeshBasicMaterial()} />)
    note(renderer)
    await renderer.unmount()
    renderer = undefined
    expect(givenDisposed).not.toHaveBeenCalled()
    // The MeshBasicMaterial needs no normals: a second geometry (without them) replaced the first.
    expect(inScene.geometries.size).toBe(2)
    expect([...inScene.materials].filter((material) => ledger.materials.has(material))).toHaveLength(2)
    expect(await expectClean(ledger, inScene)).toBe(0)
  })
})

describe('useMD2.clear', () => {
  it('frees the entry: the next read fetches and parses again, into a new model', async () => {
    const url = 'http://md2.test/quake2/sydney/weapon.md2'
    const first = await useMD2.preload(url)
    expect(useMD2.peek(url)).toBe(first)
    renderer = await mount(
      <Suspense fallback={null}>
        <MD2Model url={url} />
      </Suspense>,
    )
    await settle()
    expect(modelFetches()).toEqual([url])
    await renderer.unmount()
    renderer = undefined

    useMD2.clear(url)
    expect(useMD2.peek(url)).toBeUndefined()
    // The cache no longer holds the old model: once the test lets go of it, it can be collected.
    const ref = new WeakRef(first)

    renderer = await mount(
      <Suspense fallback={null}>
        <MD2Model url={url} />
      </Suspense>,
    )
    await settle()
    expect(modelFetches()).toEqual([url, url])
    const second = useMD2.peek(url)
    expect(second).toBeDefined()
    expect(second).not.toBe(ref.deref())
    expect(fingerprint(second!)).toBe(fingerprint(ref.deref()!))
  })

  it('the cleared model is freed once nothing shows it', async () => {
    const url = 'http://md2.test/quake2/ogro/w_bfg.MD2'
    let ref: WeakRef<MD2ModelData> | undefined
    await (async () => {
      ref = new WeakRef(await useMD2.preload(url))
    })()
    renderer = await mount(
      <Suspense fallback={null}>
        <MD2Model url={url} skin={null} />
      </Suspense>,
    )
    await renderer.unmount()
    renderer = undefined
    expect(ref!.deref()).toBeDefined()
    useMD2.clear(url)
    expect(await collected([ref!])).toBe(1)
  })

  it('clear() with no URL frees every entry', async () => {
    const a = 'http://md2.test/quake2/ogro/w_blaster.md2'
    const b = 'http://md2.test/quake2/ogro/a_grenades.md2'
    await useMD2.preload(a)
    await useMD2.preload(b)
    useMD2.clear()
    expect(useMD2.peek(a)).toBeUndefined()
    expect(useMD2.peek(b)).toBeUndefined()
    await useMD2.preload(a)
    expect(modelFetches()).toEqual([a, b, a])
  })
})
