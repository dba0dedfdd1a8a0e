import { StrictMode, Suspense, createRef } from 'react'
import { DataTexture, LoadingManager, type Group, type Mesh, type MeshLambertMaterial } from 'three'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MD2Model } from '../../src/react/MD2Model'
import { setAbandonedAfter } from '../../src/react/loading/assetCache'
import { modelKey, models, useMD2 } from '../../src/react/loading/useMD2'
import { useMD2Skin } from '../../src/react/loading/useMD2Skin'
import { MD2Loader } from '../../src/three/loaders/MD2Loader'
import { mount } from '../support/render'
import { HOST, serveAssets } from '../support/serve'

const OGRO = `${HOST}/a/quake2/ogro/tris.MD2`
const RATAMAHATTA = `${HOST}/a/quake2/ratamahatta/tris.md2`
const SYDNEY = `${HOST}/a/quake2/sydney/tris.md2`
const NEVER = new Promise<void>(() => {})
/** Past the cache's grace period for letting go of what nobody holds. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 250))

afterEach(() => {
  vi.restoreAllMocks()
  useMD2.clear()
  useMD2Skin.clear()
})

const meshOf = (group: Group) => group.children[0] as Mesh

describe('loads nobody wants any more are aborted, and the cache is not poisoned', () => {
  it('a URL switched away from before it loaded is aborted; the model on screen stays until the new one is in', async () => {
    const server = serveAssets({}, { path: '/a/quake2/ratamahatta/tris.md2', promise: NEVER })
    const ref = createRef<Group>()
    const scene = (url: string) => (
      <Suspense fallback={null}>
        <MD2Model ref={ref} url={url} skin={null} />
      </Suspense>
    )
    const r = await mount(scene(OGRO))
    await vi.waitFor(() => expect(ref.current).not.toBeNull())
    const ogroGeometry = meshOf(ref.current!).geometry
    await r.update(scene(RATAMAHATTA))
    // The slow model is on its way; the ogro is still drawn.
    await vi.waitFor(() => expect(server.requests).toContain('/a/quake2/ratamahatta/tris.md2'))
    expect(meshOf(ref.current!).geometry).toBe(ogroGeometry)
    await r.update(scene(SYDNEY))
    await vi.waitFor(() => expect(meshOf(ref.current!).geometry).not.toBe(ogroGeometry))
    await settle()
    expect(server.aborted).toEqual(['/a/quake2/ratamahatta/tris.md2'])
    expect(server.open()).toBe(0)
    // Held: Sydney on screen. The ogro (unmounted, not preloaded) and the aborted load are gone.
    expect(models.keys().map((key) => key.url)).toEqual([SYDNEY])
  })

  it('unmounting while a switch is loading aborts it; the next user of that URL loads it afresh', async () => {
    let open!: () => void
    const gate = new Promise<void>((resolve) => (open = resolve))
    const server = serveAssets({}, { path: '/a/quake2/ratamahatta/tris.md2', promise: gate })
    const ref = createRef<Group>()
    const r = await mount(<MD2Model ref={ref} url={OGRO} skin={null} />)
    await vi.waitFor(() => expect(ref.current).not.toBeNull())
    await r.update(<MD2Model ref={ref} url={RATAMAHATTA} skin={null} />)
    await vi.waitFor(() => expect(server.requests).toContain('/a/quake2/ratamahatta/tris.md2'))
    await r.update(<></>)
    await settle()
    expect(server.aborted).toEqual(['/a/quake2/ratamahatta/tris.md2'])
    expect(models.has(modelKey(RATAMAHATTA))).toBe(false)
    open()
    const again = createRef<Group>()
    await r.update(<MD2Model ref={again} url={RATAMAHATTA} skin={null} />)
    await vi.waitFor(() => expect(again.current).not.toBeNull())
    expect(server.requests.filter((path) => path === '/a/quake2/ratamahatta/tris.md2')).toHaveLength(2)
  })

  it('StrictMode (effects run twice) and a remount within the grace period abort nothing and load once', async () => {
    const server = serveAssets()
    const ref = createRef<Group>()
    const r = await mount(
      <StrictMode>
        <MD2Model ref={ref} url={OGRO} skin={null} />
      </StrictMode>,
    )
    await vi.waitFor(() => expect(ref.current).not.toBeNull())
    await r.update(<></>)
    await r.update(<MD2Model ref={ref} url={OGRO} skin={null} />)
    await settle()
    expect(server.aborted).toEqual([])
    expect(server.requests).toEqual(['/a/quake2/ogro/tris.MD2'])
    expect(models.keys().map((key) => key.url)).toEqual([OGRO])
  })

  it('a skin switched away from before it loaded is aborted; the skin shown stays until the new one is in', async () => {
    const server = serveAssets({}, { path: '/a/quake2/ogro/khorne.pcx', promise: NEVER })
    const ref = createRef<Group>()
    const r = await mount(<MD2Model ref={ref} url={OGRO} skin="igdosh.pcx" />)
    await vi.waitFor(() => expect((meshOf(ref.current!).material as MeshLambertMaterial).map?.name).toContain('igdosh'))
    await r.update(<MD2Model ref={ref} url={OGRO} skin="khorne.pcx" />)
    await vi.waitFor(() => expect(server.requests).toContain('/a/quake2/ogro/khorne.pcx'))
    expect((meshOf(ref.current!).material as MeshLambertMaterial).map?.name).toContain('igdosh')
    await r.update(<MD2Model ref={ref} url={OGRO} skin="grok.pcx" />)
    await vi.waitFor(() => expect((meshOf(ref.current!).material as MeshLambertMaterial).map?.name).toContain('grok'))
    await settle()
    expect(server.aborted).toEqual(['/a/quake2/ogro/khorne.pcx'])
    expect(server.open()).toBe(0)
  })

  it('from a Texture given as the skin to a URL still loading: the Texture stays on screen, never no skin in between', async () => {
    let open!: () => void
    const gate = new Promise<void>((resolve) => (open = resolve))
    serveAssets({}, { path: '/a/quake2/ogro/khorne.pcx', promise: gate })
    const given = new DataTexture(new Uint8Array([200, 40, 40, 255]), 1, 1)
    const ref = createRef<Group>()
    const material = () => meshOf(ref.current!).material as MeshLambertMaterial
    const r = await mount(<MD2Model ref={ref} url={OGRO} skin={given} />)
    await vi.waitFor(() => expect(material().map).toBe(given))
    await r.update(<MD2Model ref={ref} url={OGRO} skin="khorne.pcx" />)
    await settle()
    // The new skin is on its way; the given one is still drawn (not the bare material).
    expect(material().map).toBe(given)
    open()
    await vi.waitFor(() => expect(material().map?.name).toContain('khorne'))
    given.dispose()
  })

  it('clear() aborts a load in flight; components waiting for it load it again and show it', async () => {
    let open!: () => void
    const gate = new Promise<void>((resolve) => (open = resolve))
    const server = serveAssets({}, { path: '/a/quake2/ogro/tris.MD2', promise: gate })
    const ref = createRef<Group>()
    await mount(
      <Suspense fallback={null}>
        <MD2Model ref={ref} url={OGRO} skin={null} />
      </Suspense>,
    )
    await vi.waitFor(() => expect(server.requests).toHaveLength(1))
    useMD2.clear(OGRO)
    open()
    await vi.waitFor(() => expect(ref.current).not.toBeNull())
    expect(server.aborted).toEqual(['/a/quake2/ogro/tris.MD2'])
    expect(server.requests).toEqual(['/a/quake2/ogro/tris.MD2', '/a/quake2/ogro/tris.MD2'])
  })

  it('a load whose only reader suspended and was thrown away is dropped once it arrives', async () => {
    setAbandonedAfter(150)
    let open!: () => void
    const gate = new Promise<void>((resolve) => (open = resolve))
    serveAssets({}, { path: '/a/quake2/sydney/tris.md2', promise: gate })
    const r = await mount(
      <Suspense fallback={null}>
        <MD2Model url={SYDNEY} skin={null} />
      </Suspense>,
    )
    await r.update(<></>)
    open()
    await vi.waitFor(() => expect(models.peek(modelKey(SYDNEY))).toBeDefined())
    await vi.waitFor(() => expect(models.has(modelKey(SYDNEY))).toBe(false), { timeout: 2000 })
    setAbandonedAfter(5000)
  })

  it('a preloaded model stays cached when nothing shows it; an aborted load tells its LoadingManager once', async () => {
    serveAssets({}, { path: '/a/quake2/sydney/tris.md2', promise: NEVER })
    await useMD2.preload(OGRO)
    const ref = createRef<Group>()
    const r = await mount(<MD2Model ref={ref} url={OGRO} skin={null} />)
    await vi.waitFor(() => expect(ref.current).not.toBeNull())
    await r.update(<></>)
    await settle()
    expect(useMD2.peek(OGRO)).toBeDefined()

    const manager = new LoadingManager()
    const onError = vi.fn()
    const onLoad = vi.fn()
    manager.onError = onError
    manager.onLoad = onLoad
    const controller = new AbortController()
    const loading = new MD2Loader(manager).loadWith(SYDNEY, { signal: controller.signal })
    controller.abort()
    await expect(loading).rejects.toMatchObject({ name: 'AbortError' })
    expect(onError).toHaveBeenCalledTimes(1)
    expect(onLoad).toHaveBeenCalledTimes(1)
  })
})
