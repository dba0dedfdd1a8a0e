import { Suspense, createRef } from 'react'
import type { Group } from 'three'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MD2Error } from '../../src/core/MD2Error'
import { MD2Model } from '../../src/react/MD2Model'
import { getLoadTimeout, setLoadTimeout } from '../../src/react/loading/loadTimeout'
import { modelKey, models, useMD2 } from '../../src/react/loading/useMD2'
import { useMD2Tags } from '../../src/react/loading/useMD2Tags'
import { Boundary } from '../support/boundary'
import { mount } from '../support/render'
import { HOST, serveAssets } from '../support/serve'

const PATH = '/a/quake2/ogro/tris.MD2'
const OGRO = `${HOST}${PATH}`

/** A server that does not answer `PATH` until `answer()` is called (requests aborted meanwhile fail). */
function stalledServer() {
  let answer!: () => void
  const gate = new Promise<void>((resolve) => (answer = resolve))
  return { server: serveAssets({}, { path: PATH, promise: gate }), answer }
}
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

afterEach(() => {
  vi.restoreAllMocks()
  useMD2.clear()
  useMD2Tags.clear()
  setLoadTimeout(30_000)
})

describe('a load that never answers', () => {
  it('fails after its timeout with LOAD_FAILED naming the URL and the time, leaves the cache, and a later mount loads afresh', async () => {
    const { server, answer } = stalledServer()
    const caught: unknown[] = []
    const ref = createRef<Group>()
    const scene = (
      <Boundary onError={(error) => caught.push(error)}>
        <Suspense fallback={null}>
          <MD2Model ref={ref} url={OGRO} skin={null} timeout={200} />
        </Suspense>
      </Boundary>
    )
    const first = await mount(scene)
    await vi.waitFor(() => expect(caught).toHaveLength(1), { timeout: 3000 })
    const error = caught[0] as MD2Error
    expect(error).toBeInstanceOf(MD2Error)
    expect(error.code).toBe('LOAD_FAILED')
    expect(error.file).toBe(OGRO)
    expect(error.message).toContain(OGRO)
    expect(error.message).toContain('200 ms')
    // The request itself was given up, and nothing of it stays in the cache.
    await vi.waitFor(() => expect(server.aborted).toEqual([PATH]))
    await wait(250)
    expect(models.has(modelKey(OGRO))).toBe(false)
    await first.unmount()

    // The server answers now: the same URL mounted again is fetched again and drawn.
    answer()
    await mount(scene)
    await vi.waitFor(() => expect(ref.current).not.toBeNull(), { timeout: 3000 })
    expect(server.requests.filter((path) => path === PATH)).toHaveLength(2)
  })

  it('a first load abandoned while pending is not inherited by a later mount once its timeout has passed', async () => {
    const { server, answer } = stalledServer()
    const ref = createRef<Group>()
    const scene = (
      <Suspense fallback={null}>
        <MD2Model ref={ref} url={OGRO} skin={null} timeout={150} />
      </Suspense>
    )
    // Mounted while the load is pending, then gone before it answers: React runs no cleanup for it.
    const abandoned = await mount(scene)
    await vi.waitFor(() => expect(server.requests).toEqual([PATH]))
    await abandoned.unmount()
    await wait(400)
    expect(server.aborted).toEqual([PATH])
    answer()
    await mount(scene)
    await vi.waitFor(() => expect(ref.current).not.toBeNull(), { timeout: 3000 })
    expect(server.requests).toEqual([PATH, PATH])
  })

  it('useMD2 takes a timeout option, and setLoadTimeout sets the default every load gets', async () => {
    stalledServer()
    setLoadTimeout(120)
    expect(getLoadTimeout()).toBe(120)
    const rejected = useMD2.preload(OGRO).catch((error: unknown) => error)
    const error = (await rejected) as MD2Error
    expect(error.code).toBe('LOAD_FAILED')
    expect(error.message).toContain('120 ms')
    await wait(200)
    expect(models.has(modelKey(OGRO))).toBe(false)

    const own = (await useMD2.preload(OGRO, { timeout: 60 }).catch((e: unknown) => e)) as MD2Error
    expect(own.message).toContain('60 ms')
  })

  it('a URL switched to fails after the timeout given, as a first load does', async () => {
    const SYDNEY_PATH = '/a/quake2/sydney/tris.md2'
    const SYDNEY = `${HOST}${SYDNEY_PATH}`
    serveAssets({}, { path: SYDNEY_PATH, promise: new Promise<void>(() => {}) })
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const caught: unknown[] = []
    const ref = createRef<Group>()
    const scene = (url: string) => (
      <Boundary onError={(error) => caught.push(error)}>
        <Suspense fallback={null}>
          <MD2Model ref={ref} url={url} skin={null} timeout={150} />
        </Suspense>
      </Boundary>
    )
    const r = await mount(scene(OGRO))
    await vi.waitFor(() => expect(ref.current).not.toBeNull(), { timeout: 3000 })
    await r.update(scene(SYDNEY))
    await vi.waitFor(() => expect(caught).toHaveLength(1), { timeout: 3000 })
    expect(caught[0]).toMatchObject({ code: 'LOAD_FAILED', file: SYDNEY, message: expect.stringContaining('150 ms') })
  })

  it('useMD2Tags takes a timeout', async () => {
    const TAGS_PATH = '/a/ufoai/soldier-male/body.tag'
    const TAGS = `${HOST}${TAGS_PATH}`
    const server = serveAssets({}, { path: TAGS_PATH, promise: new Promise<void>(() => {}) })
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const caught: unknown[] = []
    function Probe() {
      useMD2Tags(TAGS, { timeout: 120 })
      return null
    }
    await mount(
      <Boundary onError={(error) => caught.push(error)}>
        <Suspense fallback={null}>
          <Probe />
        </Suspense>
      </Boundary>,
    )
    await vi.waitFor(() => expect(caught).toHaveLength(1), { timeout: 3000 })
    expect(caught[0]).toMatchObject({ code: 'LOAD_FAILED', file: TAGS, message: expect.stringContaining('120 ms') })
    await vi.waitFor(() => expect(server.aborted).toEqual([TAGS_PATH]))
  })

  it('a loaded model is not affected by its timeout, and a bad timeout warns once and uses the default', async () => {
    serveAssets()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const ref = createRef<Group>()
    await mount(
      <Suspense fallback={null}>
        <MD2Model ref={ref} url={OGRO} skin={null} timeout={-5} />
        <MD2Model url={OGRO} skin={null} timeout={-5} />
      </Suspense>,
    )
    await vi.waitFor(() => expect(ref.current).not.toBeNull(), { timeout: 3000 })
    const warnings = warn.mock.calls.map((call) => String(call[0])).filter((text) => text.includes('timeout'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('-5')
    expect(warnings[0]).toContain('30000 ms')
    await wait(50)
    expect(models.peek(modelKey(OGRO))).toBeDefined()
  })
})
