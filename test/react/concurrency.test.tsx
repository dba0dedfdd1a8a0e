/**
 * Concurrency (issue 6): many components asking for one URL at once share one fetch and one parse;
 * a component unmounted while its model loads leaves no error, no unhandled rejection and nothing
 * undisposed; a failing URL gives every asker the same MD2Error through its error boundary.
 *
 * `fetch` is replaced by a controllable fake (three's FileLoader uses fetch in Node): each test
 * decides when a model's response arrives; the skin images `<MD2Model>` looks up next to a model
 * are answered at once (the asset, or a 404).
 */
import ReactThreeTestRenderer from '@react-three/test-renderer'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { useThree, type RootState } from '@react-three/fiber'
import { Component, Suspense, type ReactNode } from 'react'
import { BufferGeometry, Material, type Mesh, type MeshLambertMaterial } from 'three'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { MD2Error } from '../../src/core/MD2Error'
import { MD2Model } from '../../src/react/MD2Model'
import { useMD2 } from '../../src/react/loading/useMD2'
import { MD2Loader } from '../../src/three/loaders/MD2Loader'
import { getMD2RenderData } from '../../src/three/mesh/MD2Geometry'
import { ASSETS_DIR, readAsset } from '../support/assets'
import { mount } from '../support/render'
import { collected } from '../support/gc'

type Renderer = Awaited<ReturnType<typeof ReactThreeTestRenderer.create>>
const { act } = ReactThreeTestRenderer

// ---------------------------------------------------------------------------------------------
// A fetch whose responses the test releases

interface PendingFetch {
  url: string
  respond: () => void
  fail: (status?: number) => void
  reject: (error: Error) => void
}

/** Model fetches, in order, each waiting for the test to answer it. */
const fetches: PendingFetch[] = []

function fakeFetch(input: RequestInfo | URL, init?: RequestInit): Promise<unknown> {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
  const signal = init?.signal ?? (typeof input === 'object' && 'signal' in input ? input.signal : undefined)
  return new Promise((resolve, reject) => {
    const pending: PendingFetch = {
      url,
      respond: () => {
        const path = assetPath(url)
        const bytes = path.startsWith('garbage') ? new Uint8Array(300).fill(7) : readAsset(path).slice()
        // No body stream: FileLoader then reads arrayBuffer() directly (Node has no ProgressEvent).
        resolve({ status: 200, statusText: 'OK', url, headers: new Headers(), body: undefined, arrayBuffer: async () => bytes.buffer })
      },
      fail: (status = 404) => resolve({ status, statusText: 'Not Found', url, headers: new Headers(), body: undefined }),
      reject,
    }
    signal?.addEventListener('abort', () => reject(new Error('aborted')))
    if (!isModel(url)) {
      // Skins the component looks up next to the model: served at once when the asset exists.
      skinFetches.push(url)
      const path = assetPath(url)
      if (existsSync(join(ASSETS_DIR, path))) pending.respond()
      else pending.fail(404)
      return
    }
    fetches.push(pending)
  })
}

/** Model fetches wait for the test; anything else (skin images) is answered at once. */
const isModel = (url: string) => /\.md2(\?.*)?$/i.test(url)
const assetPath = (url: string) => url.replace('http://md2.test/', '').replace(/\?.*$/, '')
const skinFetches: string[] = []

/** Lets pending promises, timers and React's retries run. */
async function settle(ms = 50): Promise<void> {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, ms))
  })
}

// ---------------------------------------------------------------------------------------------
// Watching for errors, rejections and leaks

const unhandled: unknown[] = []
const onUnhandled = (reason: unknown) => unhandled.push(reason)
let consoleErrors: unknown[][] = []
let renderer: Renderer | undefined

beforeEach(() => {
  fetches.length = 0
  skinFetches.length = 0
  unhandled.length = 0
  consoleErrors = []
  vi.stubGlobal('fetch', fakeFetch)
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args)
  })
  process.on('unhandledRejection', onUnhandled)
})
afterEach(async () => {
  await renderer?.unmount()
  renderer = undefined
  process.off('unhandledRejection', onUnhandled)
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
  useMD2.clear()
})

/** Counts geometries made with a model's shared index, and every geometry and material disposal. */
function ledger() {
  const indexes = new Set<unknown>()
  const created = new Set<BufferGeometry>()
  const disposed = new Set<BufferGeometry>()
  const materialsDisposed: Material[] = []
  const setIndex = BufferGeometry.prototype.setIndex
  vi.spyOn(BufferGeometry.prototype, 'setIndex').mockImplementation(function (this: BufferGeometry, index) {
    if ((index as { isBufferAttribute?: boolean } | null)?.isBufferAttribute) indexes.add(index)
    created.add(this)
    return setIndex.call(this, index)
  })
  const dispose = BufferGeometry.prototype.dispose
  vi.spyOn(BufferGeometry.prototype, 'dispose').mockImplementation(function (this: BufferGeometry) {
    disposed.add(this)
    return dispose.call(this)
  })
  const disposeMaterial = Material.prototype.dispose
  vi.spyOn(Material.prototype, 'dispose').mockImplementation(function (this: Material) {
    materialsDisposed.push(this)
    return disposeMaterial.call(this)
  })
  return { created, disposed, materialsDisposed }
}

class Boundary extends Component<{ id: number; caught: Map<number, unknown>; children: ReactNode }, { error?: unknown }> {
  override state: { error?: unknown } = {}
  static getDerivedStateFromError(error: unknown) {
    return { error }
  }
  override componentDidCatch(error: unknown) {
    this.props.caught.set(this.props.id, error)
  }
  override render() {
    return this.state.error === undefined ? this.props.children : null
  }
}

/** `count` models asking for one URL, each in its own error boundary that records what it caught. */
function askers(count: number, url: string, caught: Map<number, unknown>) {
  return (
    <>
      {Array.from({ length: count }, (_, i) => (
        <Boundary key={i} id={i} caught={caught}>
          <Suspense fallback={null}>
            <MD2Model url={url} />
          </Suspense>
        </Boundary>
      ))}
    </>
  )
}

/** Grabs the root state (renderer, scene, camera) from inside the canvas. */
function Capture({ into }: { into: { state?: RootState } }): null {
  into.state = useThree()
  return null
}

function meshes(r: Renderer): Mesh[] {
  const found: Mesh[] = []
  const visit = (instance: { instance: unknown; children: { instance: unknown; children: unknown[] }[] }) => {
    if ((instance.instance as Mesh).isMesh) found.push(instance.instance as Mesh)
    for (const child of instance.children) visit(child as never)
  }
  visit(r.scene as never)
  return found
}

// ---------------------------------------------------------------------------------------------

describe('many components, one URL', () => {
  it('50 components asking at once: one fetch, one parse, one shared model', async () => {
    const parse = vi.spyOn(MD2Loader.prototype, 'parse')
    const url = 'http://md2.test/quake2/ogro/tris.MD2'
    renderer = await mount(
      <Suspense fallback={null}>
        {Array.from({ length: 50 }, (_, i) => (
          <MD2Model key={i} url={url} position={[i, 0, 0]} animation="run" />
        ))}
      </Suspense>,
    )
    // All 50 are suspended on the same request.
    expect(fetches.map((f) => f.url)).toEqual([url])
    expect(meshes(renderer)).toHaveLength(0)
    fetches[0]!.respond()
    await settle(50)
    expect(fetches).toHaveLength(1)
    expect(parse).toHaveBeenCalledTimes(1)
    // The model's skin 0 (players/ogro/igdosh.pcx) is looked up once for all 50, each URL fetched once.
    expect(skinFetches.length).toBeGreaterThan(0)
    expect(new Set(skinFetches).size).toBe(skinFetches.length)
    const all = meshes(renderer)
    expect(all).toHaveLength(50)
    const maps = new Set(all.map((mesh) => (mesh.material as MeshLambertMaterial).map))
    expect(maps.size).toBe(1)
    expect([...maps][0]).not.toBeNull()
    const model = useMD2.peek(url)!
    const { index, uv } = getMD2RenderData(model)
    // One model: every instance shares its index and uv attributes, and owns its positions.
    expect(new Set(all.map((mesh) => mesh.geometry.index))).toEqual(new Set([index]))
    expect(new Set(all.map((mesh) => mesh.geometry.getAttribute('uv')))).toEqual(new Set([uv]))
    expect(new Set(all.map((mesh) => mesh.geometry.getAttribute('position'))).size).toBe(50)
    await renderer.advanceFrames(3, 1 / 20)
    expect(consoleErrors).toEqual([])
    expect(unhandled).toEqual([])
  })

  it('components mounting while the first load is under way join it; later ones read the cache', async () => {
    const parse = vi.spyOn(MD2Loader.prototype, 'parse')
    const url = 'http://md2.test/quake2/ogro/weapon.md2'
    const scene = (n: number) => (
      <Suspense fallback={null}>
        {Array.from({ length: n }, (_, i) => (
          <MD2Model key={i} url={url} />
        ))}
      </Suspense>
    )
    renderer = await mount(scene(10))
    await renderer.update(scene(30))
    expect(fetches).toHaveLength(1)
    fetches[0]!.respond()
    await settle(50)
    await renderer.update(scene(50))
    expect(meshes(renderer)).toHaveLength(50)
    expect(fetches).toHaveLength(1)
    expect(parse).toHaveBeenCalledTimes(1)
    expect(consoleErrors).toEqual([])
  })

  it('preload and components asking at the same time still share one fetch', async () => {
    const parse = vi.spyOn(MD2Loader.prototype, 'parse')
    const url = 'http://md2.test/quake2/sydney/weapon.md2'
    const preloaded = useMD2.preload(url)
    renderer = await mount(
      <Suspense fallback={null}>
        <MD2Model url={url} />
        <MD2Model url={url} />
      </Suspense>,
    )
    fetches[0]!.respond()
    await settle()
    expect(await preloaded).toBe(useMD2.peek(url))
    expect(fetches).toHaveLength(1)
    expect(parse).toHaveBeenCalledTimes(1)
    expect(meshes(renderer)).toHaveLength(2)
  })
})

describe('unmounted while loading', () => {
  it('leaves no error, no unhandled rejection and no geometry or material behind (load succeeds later)', async () => {
    const { created, disposed } = ledger()
    const url = 'http://md2.test/quake2/pknight/tris.md2'
    renderer = await mount(
      <Suspense fallback={null}>
        {Array.from({ length: 5 }, (_, i) => (
          <MD2Model key={i} url={url} />
        ))}
      </Suspense>,
    )
    expect(fetches).toHaveLength(1)
    await renderer.unmount()
    renderer = undefined
    fetches[0]!.respond()
    await settle(30)
    expect(consoleErrors).toEqual([])
    expect(unhandled).toEqual([])
    // Nothing was mounted, so nothing was made; the model is simply cached for the next asker.
    expect([...created].filter((geometry) => !disposed.has(geometry))).toEqual([])
    expect(useMD2.peek(url)).toBeDefined()
  })

  it('leaves no error and no unhandled rejection when the load then fails', async () => {
    const url = 'http://md2.test/missing.md2'
    renderer = await mount(
      <Suspense fallback={null}>
        <MD2Model url={url} />
      </Suspense>,
    )
    await renderer.unmount()
    renderer = undefined
    fetches[0]!.fail(404)
    await settle(30)
    expect(consoleErrors).toEqual([])
    expect(unhandled).toEqual([])
  })

  it('a sibling that stays mounted still gets the model; the unmounted one leaves nothing', async () => {
    const { created, disposed } = ledger()
    const url = 'http://md2.test/quake2/faerie/tris.md2'
    const scene = (both: boolean) => (
      <>
        <Suspense fallback={null}>
          <MD2Model url={url} name="stays" />
        </Suspense>
        {both && (
          <Suspense fallback={null}>
            <MD2Model url={url} name="goes" />
          </Suspense>
        )}
      </>
    )
    renderer = await mount(scene(true))
    await renderer.update(scene(false))
    fetches[0]!.respond()
    await settle()
    expect(meshes(renderer)).toHaveLength(1)
    expect(created.size).toBe(1)
    await renderer.unmount()
    renderer = undefined
    expect([...created].filter((geometry) => !disposed.has(geometry))).toEqual([])
    expect(consoleErrors).toEqual([])
    expect(unhandled).toEqual([])
  })

  it('mount/unmount churn during 20 loads: what reached the scene is disposed, the rest is garbage', async () => {
    const { created, disposed, materialsDisposed } = ledger()
    const inScene = new Set<BufferGeometry>()
    const capture: { state?: RootState } = {}
    /** Draws with the real WebGLRenderer (mock context) and notes every geometry in the scene. */
    let peak = 0
    const draw = () => {
      const { gl, scene, camera } = capture.state!
      gl.render(scene, camera)
      peak = Math.max(peak, gl.info.memory.geometries)
      scene.traverse((object) => {
        if ((object as Mesh).isMesh) inScene.add((object as Mesh).geometry)
      })
    }
    const urls = Array.from({ length: 20 }, (_, i) => `http://md2.test/quake2/ogro/w_blaster.md2?v=${i}`)
    renderer = await mount(<Capture into={capture} />)
    const baseline = capture.state!.gl.info.memory.geometries
    for (let i = 0; i < urls.length; i++) {
      // A fresh URL, sometimes next to a reader of the previous (maybe unanswered) one; answer
      // every other fetch; draw; then drop everything.
      await renderer.update(
        <>
          <Capture into={capture} />
          <Suspense fallback={null}>
            <MD2Model url={urls[i]!} />
            {i % 3 === 0 && <MD2Model url={urls[Math.max(0, i - 1)]!} />}
          </Suspense>
        </>,
      )
      if (i % 2 === 0) fetches.filter((f) => f.url === urls[i]).forEach((f) => f.respond())
      await settle(2)
      draw()
      await renderer.update(<Capture into={capture} />)
      draw()
    }
    for (const f of fetches) f.respond()
    await settle(30)
    draw()
    expect(peak).toBeGreaterThan(baseline)
    expect(capture.state!.gl.info.memory.geometries).toBe(baseline)
    await renderer.unmount()
    renderer = undefined
    expect(fetches.length).toBe(20)
    expect(consoleErrors).toEqual([])
    expect(unhandled).toEqual([])
    expect(inScene.size).toBeGreaterThan(0)
    // Every geometry that reached the scene (and the GPU) was disposed, with its material.
    expect([...inScene].filter((geometry) => !disposed.has(geometry))).toEqual([])
    expect(materialsDisposed.length).toBe(disposed.size)
    // Renders React threw away (a sibling suspended) made geometries that were never committed: never
    // drawn, never uploaded, referenced by nothing, so the garbage collector takes them.
    const discarded = [...created].filter((geometry) => !disposed.has(geometry)).map((geometry) => new WeakRef(geometry))
    expect(discarded.every((ref) => !inScene.has(ref.deref()!))).toBe(true)
    created.clear()
    disposed.clear()
    inScene.clear()
    materialsDisposed.length = 0
    capture.state = undefined
    vi.clearAllMocks() // the spies' call records hold every `this` and result
    vi.restoreAllMocks()
    expect(await collected(discarded)).toBe(discarded.length)
  })
})

describe('a failing URL', () => {
  it('gives every asker the same MD2Error (LOAD_FAILED, naming the URL) through its error boundary', async () => {
    const url = 'http://md2.test/nowhere/missing.md2'
    const caught = new Map<number, unknown>()
    renderer = await mount(askers(10, url, caught))
    expect(fetches).toHaveLength(1)
    fetches[0]!.fail(404)
    await settle()
    expect(caught.size).toBe(10)
    const errors = [...caught.values()]
    const first = errors[0]
    expect(first).toBeInstanceOf(MD2Error)
    expect((first as MD2Error).code).toBe('LOAD_FAILED')
    expect((first as MD2Error).file).toBe(url)
    expect((first as MD2Error).message).toContain(url)
    expect(errors.every((error) => error === first)).toBe(true)
    expect(unhandled).toEqual([])
    // A later asker gets the same error at once, without another fetch.
    const late = new Map<number, unknown>()
    await renderer.update(
      <Boundary id={99} caught={late}>
        <Suspense fallback={null}>
          <MD2Model url={url} />
        </Suspense>
      </Boundary>,
    )
    await settle()
    expect(late.get(99)).toBe(first)
    expect(fetches).toHaveLength(1)
  })

  it('a network error (fetch rejects) is LOAD_FAILED too', async () => {
    const url = 'http://md2.test/offline.md2'
    const caught = new Map<number, unknown>()
    renderer = await mount(
      <Boundary id={0} caught={caught}>
        <Suspense fallback={null}>
          <MD2Model url={url} />
        </Suspense>
      </Boundary>,
    )
    fetches[0]!.reject(new TypeError('fetch failed'))
    await settle()
    const error = caught.get(0) as MD2Error
    expect(error).toBeInstanceOf(MD2Error)
    expect(error.code).toBe('LOAD_FAILED')
    expect(error.message).toContain(url)
    expect(error.message).toContain('fetch failed')
    expect(unhandled).toEqual([])
  })

  it('a damaged file gives every asker the parser’s MD2Error, naming the URL', async () => {
    const parse = vi.spyOn(MD2Loader.prototype, 'parse')
    const url = 'http://md2.test/garbage.md2'
    const caught = new Map<number, unknown>()
    renderer = await mount(askers(5, url, caught))
    fetches[0]!.respond()
    await settle()
    expect(parse).toHaveBeenCalledTimes(1)
    const errors = [...caught.values()] as MD2Error[]
    expect(errors).toHaveLength(5)
    expect(errors[0]).toBeInstanceOf(MD2Error)
    expect(errors[0]!.code).toBe('BAD_MAGIC')
    expect(errors[0]!.message).toContain(url)
    expect(errors.every((error) => error === errors[0])).toBe(true)
    expect(unhandled).toEqual([])
  })

  it('useMD2.clear(url) after a failure lets the next asker try again', async () => {
    const url = 'http://md2.test/quake2/ogro/a_grenades.md2'
    const caught = new Map<number, unknown>()
    const scene = (id: number) => (
      <Boundary key={id} id={id} caught={caught}>
        <Suspense fallback={null}>
          <MD2Model url={url} />
        </Suspense>
      </Boundary>
    )
    renderer = await mount(scene(0))
    fetches[0]!.fail(503)
    await settle()
    expect((caught.get(0) as MD2Error).code).toBe('LOAD_FAILED')
    useMD2.clear(url)
    await renderer.update(scene(1))
    expect(fetches).toHaveLength(2)
    fetches[1]!.respond()
    await settle()
    expect(caught.has(1)).toBe(false)
    expect(meshes(renderer)).toHaveLength(1)
  })
})
