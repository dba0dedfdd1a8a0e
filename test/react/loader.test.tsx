import { useLoader } from '@react-three/fiber'
import { Suspense } from 'react'
import { LoadingManager } from 'three'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MD2Error, type MD2ModelData } from '../../src/core'
import { MD2Model } from '../../src/react/MD2Model'
import { useMD2, type UseMD2Options } from '../../src/react/loading/useMD2'
import { MD2Loader } from '../../src/three/loaders/MD2Loader'
import { readAsset } from '../support/assets'
import { Boundary } from '../support/boundary'
import { mount } from '../support/render'

const ogroBytes = readAsset('quake2/ogro/tris.MD2')

function serve(files: Record<string, Uint8Array | number>) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    const file = files[new URL(url).pathname]
    if (typeof file === 'number' || file === undefined) return new Response('nope', { status: file ?? 404, statusText: 'Not Found' })
    return new Response(file.slice(), { headers: { 'Content-Length': String(file.length) } })
  })
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('MD2Loader (a three.js Loader)', () => {
  it('loadAsync parses a served file, reports progress through the manager and names the model by URL', async () => {
    serve({ '/a/tris.md2': ogroBytes })
    const manager = new LoadingManager()
    const onLoad = vi.fn()
    manager.onLoad = onLoad
    const progress = vi.fn()
    const model = await new MD2Loader(manager).loadAsync('http://localhost/a/tris.md2', progress)
    expect(model.frames).toHaveLength(199)
    expect(model.name).toBe('http://localhost/a/tris.md2')
    expect(progress).toHaveBeenCalled()
    expect(progress.mock.calls.at(-1)![0]).toMatchObject({ loaded: ogroBytes.length, total: ogroBytes.length })
    await vi.waitFor(() => expect(onLoad).toHaveBeenCalledTimes(1))
  })

  it('setPath resolves relative URLs', async () => {
    serve({ '/models/ogro.md2': ogroBytes })
    const model = await new MD2Loader().setPath('http://localhost/models/').loadAsync('ogro.md2')
    expect(model.header.numVertices).toBe(358)
  })

  it('a missing file rejects with LOAD_FAILED naming the URL', async () => {
    serve({})
    const error = await new MD2Loader().loadAsync('http://localhost/missing.md2').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MD2Error)
    expect((error as MD2Error).code).toBe('LOAD_FAILED')
    expect((error as MD2Error).message).toMatch(/^http:\/\/localhost\/missing\.md2: could not load/)
  })

  it('a damaged file rejects with the parser code and the URL in the message', async () => {
    serve({ '/bad.md2': ogroBytes.subarray(0, 500) })
    const error = (await new MD2Loader().loadAsync('http://localhost/bad.md2').catch((e: unknown) => e)) as MD2Error
    expect(error.code).toBe('TRUNCATED')
    expect(error.file).toBe('http://localhost/bad.md2')
    expect(error.message).toMatch(/^http:\/\/localhost\/bad\.md2, skins at offset 68: 13 × 64 bytes end at 900/)
  })

  it("a dev server's HTML page where the model should be is named as such, with status and content type", async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(
      async () =>
        new Response('<!doctype html>\n<html><body>app</body></html>', {
          status: 200,
          headers: { 'Content-Type': 'text/html; charset=utf-8' },
        }),
    )
    const error = (await new MD2Loader().loadAsync('http://localhost/players/ogro/tris.md2').catch((e: unknown) => e)) as MD2Error
    expect(error.code).toBe('LOAD_FAILED')
    expect(error.message).toBe(
      'http://localhost/players/ogro/tris.md2: got an HTML page, not an MD2 file (HTTP 200, text/html; charset=utf-8): check the URL and its case',
    )
    // Sniffed from the bytes too, when the server sends no content type.
    vi.restoreAllMocks()
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response(new TextEncoder().encode('  <HTML><head>')))
    const sniffed = (await new MD2Loader().loadAsync('http://localhost/x.md2').catch((e: unknown) => e)) as MD2Error
    expect(sniffed.message).toContain('got an HTML page, not an MD2 file')
  })

  it('an empty or non-string URL is BAD_ARGUMENT; a relative URL in Node says what to do instead', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch')
    for (const url of ['', '  ', undefined, 42]) {
      const error = (await new MD2Loader().loadAsync(url as string).catch((e: unknown) => e)) as MD2Error
      expect(error).toBeInstanceOf(MD2Error)
      expect(error.code).toBe('BAD_ARGUMENT')
      expect(error.message).toMatch(/^MD2Loader needs a URL, got /)
    }
    const relative = (await new MD2Loader().loadAsync('models/tris.md2').catch((e: unknown) => e)) as MD2Error
    expect(relative.code).toBe('BAD_ARGUMENT')
    expect(relative.message).toContain('in Node give an absolute URL')
    expect(relative.message).toContain('parseMD2(bytes)')
    expect(fetch).not.toHaveBeenCalled()
  })

  it('the LoadingManager hears of each item exactly once: start, error, end', async () => {
    serve({ '/ok.md2': ogroBytes, '/bad.md2': ogroBytes.subarray(0, 100) })
    const manager = new LoadingManager()
    const events: string[] = []
    manager.onStart = (url) => events.push(`start ${url}`)
    manager.onError = (url) => events.push(`error ${url}`)
    manager.onLoad = () => events.push('load')
    const loader = new MD2Loader(manager)
    await loader.loadAsync('http://localhost/missing.md2').catch(() => {})
    await loader.loadAsync('http://localhost/bad.md2').catch(() => {})
    await loader.loadAsync('http://localhost/ok.md2')
    expect(events).toEqual([
      'start http://localhost/missing.md2',
      'error http://localhost/missing.md2',
      'load',
      'start http://localhost/bad.md2',
      'error http://localhost/bad.md2',
      'load',
      'start http://localhost/ok.md2',
      'load',
    ])
  })

  it('parse() applies an animation table', () => {
    const model = new MD2Loader().setAnimationTable([{ name: 'all', start: 0, end: 198, fps: 5 }]).parse(ogroBytes)
    expect(model.animations).toEqual([{ name: 'all', start: 0, end: 198, fps: 5, source: 'table' }])
  })

  it('works with fiber useLoader', async () => {
    serve({ '/u/ogro.md2': ogroBytes })
    let frames = 0
    function Probe() {
      frames = useLoader(MD2Loader, 'http://localhost/u/ogro.md2').frames.length
      return null
    }
    const renderer = await mount(
      <Suspense fallback={null}>
        <Probe />
      </Suspense>,
    )
    await vi.waitFor(() => expect(frames).toBe(199))
    await renderer.unmount()
  })
})

describe('useMD2 errors reach the error boundary as MD2Error naming the URL', () => {
  it.each([
    ['http://localhost/e/damaged.md2', 'TRUNCATED'],
    ['http://localhost/e/missing.md2', 'LOAD_FAILED'],
  ])('%s → %s', async (url, code) => {
    serve({ '/e/damaged.md2': ogroBytes.subarray(0, 2000) })
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const caught: unknown[] = []
    const renderer = await mount(
      <Boundary onError={(error) => caught.push(error)}>
        <Suspense fallback={null}>
          <MD2Model url={url} />
        </Suspense>
      </Boundary>,
    )
    await vi.waitFor(async () => {
      await renderer.advanceFrames(1, 0)
      expect(caught).toHaveLength(1)
    })
    expect(caught[0]).toBeInstanceOf(MD2Error)
    expect((caught[0] as MD2Error).code).toBe(code)
    expect((caught[0] as MD2Error).message).toContain(url)
    await renderer.unmount()
    useMD2.clear(url)
  })

  it('<MD2Model> with neither url nor model is a BAD_ARGUMENT error', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const caught: unknown[] = []
    const renderer = await mount(
      <Boundary onError={(error) => caught.push(error)}>
        <MD2Model />
      </Boundary>,
    )
    expect((caught[0] as MD2Error).code).toBe('BAD_ARGUMENT')
    await renderer.unmount()
  })
})

describe('useMD2(url, options): the loader configured as drei configures useGLTF', () => {
  it('sends the headers, reports to the manager, lets extendLoader set the loader up, and keeps entries apart by options', async () => {
    const fetch = serve({ '/m/tris.md2': ogroBytes })
    const manager = new LoadingManager()
    const started: string[] = []
    manager.onStart = (url) => void started.push(url)
    const extendLoader = vi.fn((loader: MD2Loader) => loader.setPath('http://localhost/m/'))
    const options = { manager, requestHeader: { Authorization: 'Bearer 42' }, extendLoader }
    const seen: MD2ModelData[] = []
    function Probe({ url, opts }: { url: string; opts?: UseMD2Options }) {
      seen.push(useMD2(url, opts))
      return null
    }
    const r = await mount(
      <Suspense fallback={null}>
        <Probe url="tris.md2" opts={options} />
        <Probe url="tris.md2" opts={{ ...options }} />
      </Suspense>,
    )
    await vi.waitFor(() => expect(seen.length).toBeGreaterThanOrEqual(2))
    // One entry for the same options by value (headers) and identity (manager, extendLoader): one fetch.
    expect(fetch).toHaveBeenCalledTimes(1)
    expect(new Headers(fetch.mock.calls[0]![1]!.headers).get('Authorization')).toBe('Bearer 42')
    expect(extendLoader).toHaveBeenCalledTimes(1)
    expect(started).toEqual(['http://localhost/m/tris.md2'])
    expect(seen.at(-1)).toBe(seen.at(-2))
    // Other headers: another entry, another fetch.
    await r.update(
      <Suspense fallback={null}>
        <Probe url="tris.md2" opts={{ ...options, requestHeader: { Authorization: 'Bearer 43' } }} />
      </Suspense>,
    )
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(2))
  })
})
