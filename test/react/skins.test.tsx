import ReactThreeTestRenderer from '@react-three/test-renderer'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { Suspense, createRef } from 'react'
import {
  DataTexture,
  LinearFilter,
  LinearMipmapLinearFilter,
  LoadingManager,
  MeshLambertMaterial,
  SRGBColorSpace,
  Texture,
  type BufferAttribute,
  type Group,
  type Mesh,
} from 'three'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MD2Error, decodePCX, parseMD2 } from '../../src/core/internal'
import { MD2Model } from '../../src/react/MD2Model'
import { useMD2 } from '../../src/react/loading/useMD2'
import { useMD2Skin } from '../../src/react/loading/useMD2Skin'
import { createMD2Geometry } from '../../src/three/mesh/MD2Geometry'
import { MD2Loader, md2SourceUrl } from '../../src/three/loaders/MD2Loader'
import { MD2SkinLoader, createSkinTexture, getMissingSkinTexture, skinKindOf } from '../../src/three/loaders/MD2SkinLoader'
import { ASSETS_DIR, readAsset } from '../support/assets'
import { Boundary } from '../support/boundary'
import { mount, type Renderer } from '../support/render'

// ---------------------------------------------------------------------------------------------
// A fake web server: `http://localhost/a/<path under assets/>` serves the real files, byte for
// byte; anything else is a 404. `extra` adds or overrides files; `gate` holds a response back.

const HOST = 'http://localhost'
const OGRO = `${HOST}/a/quake2/ogro/tris.MD2`
const RATAMAHATTA = `${HOST}/a/quake2/ratamahatta/tris.md2`
const BLOODSPIDER = `${HOST}/a/ufoai/bloodspider/bloodspider.md2`

interface Server {
  requests: string[]
  fetch: ReturnType<typeof vi.spyOn>
}

function serve(extra: Record<string, Uint8Array> = {}, gate?: { path: string; promise: Promise<void> }): Server {
  const requests: string[] = []
  const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    const path = decodeURIComponent(new URL(url).pathname)
    requests.push(path)
    if (gate && path === gate.path) await gate.promise
    const body = extra[path] ?? assetAt(path)
    if (!body) return new Response('not found', { status: 404, statusText: 'Not Found' })
    return new Response(body.slice(), { headers: { 'Content-Length': String(body.length) } })
  })
  return { requests, fetch }
}

function assetAt(path: string): Uint8Array | undefined {
  if (!path.startsWith('/a/')) return undefined
  const file = join(ASSETS_DIR, path.slice(3))
  if (!existsSync(file) || !statSync(file).isFile()) return undefined
  return new Uint8Array(readFileSync(file))
}

/** A 2 × 2 true-colour TGA (type 2, 24-bit, top-left origin): red, green / blue, white. */
function tinyTGA(): Uint8Array {
  const header = [0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 24, 0x20]
  const bgr = [0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255]
  return new Uint8Array([...header, ...bgr])
}

afterEach(async () => {
  vi.restoreAllMocks()
  useMD2Skin.clear()
  useMD2.clear()
})

const meshOf = (group: Group) => group.children[0] as Mesh
const mapOf = (group: Group) => (meshOf(group).material as MeshLambertMaterial).map

/** Renders until `check` passes (Suspense resolves over a few ticks). */
async function until(r: Renderer, check: () => void): Promise<void> {
  await vi.waitFor(async () => {
    await r.advanceFrames(1, 0)
    check()
  })
}

// ---------------------------------------------------------------------------------------------

describe('MD2SkinLoader', () => {
  it('tells formats apart by extension, any case, ignoring query and fragment', () => {
    expect(skinKindOf('/a/igdosh.pcx')).toBe('pcx')
    expect(skinKindOf('/a/JACKET.PCX?v=2#x')).toBe('pcx')
    expect(skinKindOf('/a/skin.Tga')).toBe('tga')
    expect(skinKindOf('/a/skin.png')).toBe('image')
    expect(skinKindOf('/a/skin.JPEG')).toBe('image')
    expect(skinKindOf('/a.pcx/skin')).toBe('unknown')
    expect(skinKindOf('blob:http://localhost/1234')).toBe('unknown')
  })

  it('loads a PCX as an sRGB, mipmapped DataTexture holding the decoded pixels bottom-up', async () => {
    serve()
    const manager = new LoadingManager()
    const onLoad = vi.fn()
    manager.onLoad = onLoad
    const progress = vi.fn()
    const url = `${HOST}/a/quake2/ogro/igdosh.pcx`
    const texture = (await new MD2SkinLoader(manager).loadAsync(url, progress)) as DataTexture
    expect(texture).toBeInstanceOf(DataTexture)
    expect(texture.name).toBe(url)
    expect(texture.colorSpace).toBe(SRGBColorSpace)
    expect(texture.flipY).toBe(false)
    expect(texture.generateMipmaps).toBe(true)
    expect(texture.minFilter).toBe(LinearMipmapLinearFilter)
    expect(texture.magFilter).toBe(LinearFilter)
    expect(texture.version).toBeGreaterThan(0) // needsUpdate was set
    const decoded = decodePCX(readAsset('quake2/ogro/igdosh.pcx'))
    const { width, height, data } = texture.image as { width: number; height: number; data: Uint8Array }
    expect([width, height]).toEqual([decoded.width, decoded.height])
    const row = width * 4
    for (let y = 0; y < height; y++) {
      expect(data.subarray(y * row, (y + 1) * row)).toEqual(decoded.data.subarray((height - 1 - y) * row, (height - y) * row))
    }
    expect(progress).toHaveBeenCalled()
    await vi.waitFor(() => expect(onLoad).toHaveBeenCalledTimes(1))
  })

  it('an upper-case .PCX and a TGA load too; a URL with no extension is sniffed', async () => {
    serve({ '/x/tiny.tga': tinyTGA(), '/x/skin': readAsset('quake2/ogro/khorne.pcx'), '/x/tga-noext': tinyTGA() })
    const loader = new MD2SkinLoader()
    const jacket = (await loader.loadAsync(`${HOST}/a/quake2/sydney/JACKET.PCX`)) as DataTexture
    expect(jacket.image.width).toBe(decodePCX(readAsset('quake2/sydney/JACKET.PCX')).width)
    const tga = (await loader.loadAsync(`${HOST}/x/tiny.tga`)) as DataTexture
    // Bottom row first: blue, white; then red, green.
    expect([...(tga.image.data as Uint8Array)]).toEqual([0, 0, 255, 255, 255, 255, 255, 255, 255, 0, 0, 255, 0, 255, 0, 255])
    const sniffed = (await loader.loadAsync(`${HOST}/x/skin`)) as DataTexture
    expect(sniffed.image.width).toBe(256)
    const sniffedTga = (await loader.loadAsync(`${HOST}/x/tga-noext`)) as DataTexture
    expect(sniffedTga.image.width).toBe(2)
  })

  it('setPath resolves relative URLs', async () => {
    serve()
    const texture = (await new MD2SkinLoader().setPath(`${HOST}/a/quake2/ratamahatta/`).loadAsync('Ratamahatta.pcx')) as DataTexture
    expect(texture.image.width).toBe(256)
  })

  it('a missing file is LOAD_FAILED, a damaged one BAD_IMAGE, both naming the URL', async () => {
    serve({ '/x/broken.pcx': readAsset('quake2/ogro/igdosh.pcx').subarray(0, 300), '/x/noise': new Uint8Array(64).fill(7) })
    const loader = new MD2SkinLoader()
    const missing = (await loader.loadAsync(`${HOST}/x/missing.pcx`).catch((e: unknown) => e)) as MD2Error
    expect(missing).toBeInstanceOf(MD2Error)
    expect(missing.code).toBe('LOAD_FAILED')
    expect(missing.message).toContain(`${HOST}/x/missing.pcx`)
    const broken = (await loader.loadAsync(`${HOST}/x/broken.pcx`).catch((e: unknown) => e)) as MD2Error
    expect(broken).toBeInstanceOf(MD2Error)
    expect(broken.code).toBe('BAD_IMAGE')
    expect(broken.file).toBe(`${HOST}/x/broken.pcx`)
    expect(broken.message).toContain(`${HOST}/x/broken.pcx`)
    const noise = (await loader.loadAsync(`${HOST}/x/noise`).catch((e: unknown) => e)) as MD2Error
    expect(noise.code).toBe('BAD_IMAGE')
    expect(noise.message).toMatch(/^http:\/\/localhost\/x\/noise, skin: not a PCX, TGA, PNG or JPEG image/)
  })

  it('parse() decodes PCX bytes synchronously (TGA asynchronously, its decoder loaded on first use) and leaves the decoded image alone', async () => {
    const loader = new MD2SkinLoader()
    expect(loader.parse(readAsset('quake2/ogro/gib.pcx'), 'gib.pcx').image.width).toBe(256)
    expect(() => loader.parse(tinyTGA(), 'tiny.tga')).toThrow(/a TGA image needs parseAsync \(its decoder is loaded on first use\)/)
    expect(((await loader.parseAsync(tinyTGA())).image as { height: number }).height).toBe(2)
    const image = { width: 1, height: 2, data: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]) }
    const texture = createSkinTexture(image)
    expect([...image.data]).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    expect([...(texture.image.data as Uint8Array)]).toEqual([5, 6, 7, 8, 1, 2, 3, 4])
  })
})

describe('skin orientation matches the UVs', () => {
  it("sampling the DataTexture at each vertex's uv, as WebGL does, reads the PCX texel its s, t name", async () => {
    const model = parseMD2(readAsset('quake2/ogro/tris.MD2'))
    const decoded = decodePCX(readAsset('quake2/ogro/igdosh.pcx'))
    const texture = new MD2SkinLoader().parse(readAsset('quake2/ogro/igdosh.pcx'), 'igdosh.pcx')
    const geometry = createMD2Geometry(model)
    const uv = geometry.getAttribute('uv') as BufferAttribute
    const W = texture.image.width
    const H = texture.image.height
    const memory = texture.image.data as Uint8Array
    const { stIndex } = (await import('../../src/core/internal')).buildVertexLayout(model)
    let compared = 0
    let differing = 0
    let differingIfUnflipped = 0
    for (let i = 0; i < uv.count; i++) {
      const s = model.st[stIndex[i]! * 2]!
      const t = model.st[stIndex[i]! * 2 + 1]!
      if (s < 0 || t < 0 || s >= W || t >= H) continue
      // The centre of texel (s, t): half a texel right of and below the vertex's corner.
      const u = uv.getX(i) + 0.5 / W
      const v = uv.getY(i) - 0.5 / H
      // WebGL: texture memory row 0 is v = 0 (flipY is false for a DataTexture; the rows are stored bottom-up).
      const x = Math.floor(u * W)
      const y = Math.floor(v * H)
      const sampled = memory.subarray((y * W + x) * 4, (y * W + x) * 4 + 4)
      const expected = decoded.data.subarray((t * W + s) * 4, (t * W + s) * 4 + 4)
      const unflipped = decoded.data.subarray((y * W + x) * 4, (y * W + x) * 4 + 4)
      compared++
      if (sampled.join() !== expected.join()) differing++
      if (unflipped.join() !== expected.join()) differingIfUnflipped++
    }
    geometry.dispose()
    expect(compared).toBeGreaterThan(300)
    expect(differing).toBe(0)
    // The check can fail: uploading the decoded rows as they are would read the wrong texels.
    expect(differingIfUnflipped).toBeGreaterThan(compared / 2)
  })
})

describe('useMD2Skin', () => {
  it('loads a PCX URL with Suspense, once for several components, and preloads', async () => {
    const server = serve()
    const url = `${HOST}/a/quake2/ogro/khorne.pcx`
    const seen: Texture[] = []
    function Probe() {
      seen.push(useMD2Skin(url))
      return null
    }
    const r = await mount(
      <Suspense fallback={null}>
        <Probe />
        <Probe />
      </Suspense>,
    )
    await until(r, () => expect(seen.length).toBeGreaterThanOrEqual(2))
    expect(new Set(seen).size).toBe(1)
    expect(server.requests.filter((path) => path.endsWith('khorne.pcx'))).toHaveLength(1)
    expect(await useMD2Skin.preload(url)).toBe(seen[0])
    expect(useMD2Skin.peek(url)).toBe(seen[0])
  })

  it('resolve() finds a Quake II game path next to the model in one request', async () => {
    const server = serve()
    const found = await useMD2Skin.resolve(OGRO, 'players/ogro/igdosh.pcx')
    expect(found.url).toBe(`${HOST}/a/quake2/ogro/igdosh.pcx`)
    expect(found.tried).toEqual([`${HOST}/a/quake2/ogro/igdosh.pcx`])
    expect(found.texture).toBeInstanceOf(DataTexture)
    expect(server.requests).toEqual(['/a/quake2/ogro/igdosh.pcx'])
    // Cached: once per (model URL, skin name); the texture is the URL's cached one.
    expect(await useMD2Skin.resolve(OGRO, 'players/ogro/igdosh.pcx')).toBe(found)
    expect(useMD2Skin.peek(found.url!)).toBe(found.texture)
    expect(server.requests).toHaveLength(1)
  })

  it('resolve() tries .png, .jpg, .tga, .pcx for a UFO:AI ".name", skipping files that do not decode', async () => {
    // In Node nothing decodes the real bloodspider.jpg (no DOM): it fails BAD_IMAGE and the search goes on.
    const server = serve({ '/a/ufoai/bloodspider/bloodspider.tga': tinyTGA() })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const found = await useMD2Skin.resolve(BLOODSPIDER, '.bloodspider')
    expect(found.url).toBe(`${HOST}/a/ufoai/bloodspider/bloodspider.tga`)
    // The name as written with each extension at once, then (none decoding in Node but the TGA
    // given here, which is in the first round) nothing more.
    expect([...server.requests].sort()).toEqual(
      ['png', 'jpg', 'tga', 'pcx'].map((extension) => `/a/ufoai/bloodspider/bloodspider.${extension}`).sort(),
    )
    expect(found.tried).toHaveLength(4)
    expect(warn).not.toHaveBeenCalled()
    // The misses are not kept in the URL cache.
    expect(useMD2Skin.peek(`${HOST}/a/ufoai/bloodspider/bloodspider.png`)).toBeUndefined()
  })

  it('a skin found nowhere resolves to the shared checkerboard with one warning naming every URL tried', async () => {
    const server = serve()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const missing = await useMD2Skin.resolve(BLOODSPIDER, '.bloodspider3')
    expect(missing.url).toBeUndefined()
    expect(missing.texture).toBe(getMissingSkinTexture())
    expect(missing.tried).toHaveLength(12)
    expect(warn).toHaveBeenCalledTimes(1)
    const message = String(warn.mock.calls[0]![0])
    expect(message).toContain('".bloodspider3"')
    expect(message).toContain(BLOODSPIDER)
    for (const url of missing.tried) expect(message).toContain(url)
    expect(message).toContain('LOAD_FAILED')
    await useMD2Skin.resolve(BLOODSPIDER, '.bloodspider3')
    expect(warn).toHaveBeenCalledTimes(1)
    expect(server.requests).toHaveLength(12)
  })

  it('<MD2Model files>: a folder listing makes the search ask only for listed names, so nothing misses', async () => {
    const server = serve({ '/a/ufoai/bloodspider/bloodspider.tga': tinyTGA() })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const files = ['bloodspider.anm', 'bloodspider.md2', 'bloodspider.tga']
    const errors: MD2Error[] = []
    const scene = (skin: string) => (
      <Suspense fallback={null}>
        <MD2Model url={BLOODSPIDER} files={files} skin={skin} onSkinError={(error) => errors.push(error)} />
      </Suspense>
    )
    const r = await mount(scene('.bloodspider'))
    await vi.waitFor(() => expect(server.requests).toContain('/a/ufoai/bloodspider/bloodspider.tga'))
    // The model, then the one listed spelling of ".bloodspider": no .png, .jpg or .pcx asked for.
    expect(server.requests).toEqual(['/a/ufoai/bloodspider/bloodspider.md2', '/a/ufoai/bloodspider/bloodspider.tga'])
    expect((await useMD2Skin.resolve(BLOODSPIDER, '.bloodspider')).url).toBe(`${HOST}/a/ufoai/bloodspider/bloodspider.tga`)
    // A skin the folder lacks: the checkerboard, one warning, and no request at all.
    await r.update(scene('.bloodspider3'))
    await vi.waitFor(() => expect(errors).toHaveLength(1))
    expect(server.requests).toHaveLength(2)
    expect(errors[0]!.code).toBe('LOAD_FAILED')
    expect(String(warn.mock.calls.at(-1)![0])).toMatch(/listing has none of .*bloodspider3\.png/)
    expect((await useMD2Skin.resolve(BLOODSPIDER, '.bloodspider3')).tried).toEqual([])
    await r.unmount()
  })

  it('the checkerboard is magenta and black, created once', () => {
    const board = getMissingSkinTexture()
    expect(getMissingSkinTexture()).toBe(board)
    const data = board.image.data as Uint8Array
    expect([...data.subarray(0, 4)]).toEqual([255, 0, 255, 255])
    expect([...data.subarray(8 * 4, 8 * 4 + 4)]).toEqual([0, 0, 0, 255])
    expect(board.colorSpace).toBe(SRGBColorSpace)
  })

  it('useMD2Skin(model, index) and (model, name) resolve next to model.name', async () => {
    serve()
    const model = parseMD2(readAsset('quake2/ogro/tris.MD2'), { name: OGRO })
    const seen: Texture[] = []
    function Probe() {
      seen.push(useMD2Skin(model, 8), useMD2Skin(model, 'players/ogro/gib.pcx'))
      return null
    }
    const r = await mount(
      <Suspense fallback={null}>
        <Probe />
      </Suspense>,
    )
    await until(r, () => expect(seen.length).toBeGreaterThanOrEqual(2))
    expect(seen.at(-2)!.name).toBe(`${HOST}/a/quake2/ogro/khorne.pcx`)
    expect(seen.at(-1)!.name).toBe(`${HOST}/a/quake2/ogro/gib.pcx`)
  })
})

// ---------------------------------------------------------------------------------------------

describe('<MD2Model skin>', () => {
  it('by default shows skin 0 of a model loaded from a URL, resolved next to it', async () => {
    const server = serve()
    const ref = createRef<Group>()
    const r = await mount(
      <Suspense fallback={null}>
        <MD2Model ref={ref} url={OGRO} />
      </Suspense>,
    )
    await until(r, () => expect(ref.current).toBeTruthy())
    const map = mapOf(ref.current!)
    expect(map).toBeInstanceOf(DataTexture)
    expect(map!.name).toBe(`${HOST}/a/quake2/ogro/igdosh.pcx`)
    expect(server.requests.filter((path) => path.toLowerCase().endsWith('.md2'))).toHaveLength(1)
  })

  it('the same for a model from useMD2 given as `model`; the checkerboard, warned once each, for a parsed model or one naming no skin', async () => {
    serve()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const model = await useMD2.preload(OGRO)
    const parsed = parseMD2(readAsset('quake2/ogro/tris.MD2'), { name: 'ogro/tris.MD2' })
    const a = createRef<Group>()
    const b = createRef<Group>()
    const c = createRef<Group>()
    const r = await mount(
      <Suspense fallback={null}>
        <MD2Model ref={a} model={model} />
        <MD2Model ref={b} model={parsed} />
        <MD2Model ref={c} url={RATAMAHATTA} />
      </Suspense>,
    )
    await until(r, () => expect(a.current && c.current).toBeTruthy())
    expect(mapOf(a.current!)!.name).toBe(`${HOST}/a/quake2/ogro/igdosh.pcx`)
    // Nothing silent: not a plain white model, but the missing skin's checkerboard, with one warning each.
    expect(mapOf(b.current!)).toBe(getMissingSkinTexture())
    expect(mapOf(c.current!)).toBe(getMissingSkinTexture())
    const messages = warn.mock.calls.map(([message]) => String(message))
    expect(
      messages.filter((m) =>
        /ogro\/tris\.MD2 has no skin to show \(given parsed, without its URL\) and none was given.*checkerboard/.test(m),
      ),
    ).toHaveLength(1)
    expect(
      messages.filter((m) => /ratamahatta.*has no skin to show and none was given \(it names no skins\).*checkerboard/.test(m)),
    ).toHaveLength(1)
    // skin={null} is a choice: no skin, no warning.
    warn.mockClear()
    await r.update(
      <Suspense fallback={null}>
        <MD2Model ref={c} url={RATAMAHATTA} skin={null} />
      </Suspense>,
    )
    await r.advanceFrames(1, 0.016)
    expect(mapOf(c.current!)).toBeNull()
    expect(warn).not.toHaveBeenCalled()
  })

  it('the same for a model from MD2Loader.loadAsync (as useLoader(MD2Loader) gives it)', async () => {
    serve()
    const model = await new MD2Loader().setPath(`${HOST}/a/quake2/`).loadAsync('ogro/tris.MD2')
    expect(md2SourceUrl(model)).toBe(`${HOST}/a/quake2/ogro/tris.MD2`)
    const ref = createRef<Group>()
    const r = await mount(
      <Suspense fallback={null}>
        <MD2Model ref={ref} model={model} />
      </Suspense>,
    )
    await until(r, () => expect(mapOf(ref.current!)?.name).toBe(`${HOST}/a/quake2/ogro/igdosh.pcx`))
  })

  it('accepts an index, a name from the list, a URL, a Texture and null', async () => {
    serve()
    const ref = createRef<Group>()
    const texture = new Texture()
    const scene = (skin: number | string | Texture | null) => (
      <Suspense fallback={null}>
        <MD2Model ref={ref} url={OGRO} skin={skin} />
      </Suspense>
    )
    const r = await mount(scene(8))
    await until(r, () => expect(mapOf(ref.current!)?.name).toBe(`${HOST}/a/quake2/ogro/khorne.pcx`))
    await r.update(scene('players/ogro/ctf_b.pcx'))
    await until(r, () => expect(mapOf(ref.current!)?.name).toBe(`${HOST}/a/quake2/ogro/ctf_b.pcx`))
    await r.update(scene(`${HOST}/a/quake2/ratamahatta/Ratamahatta.pcx`))
    await until(r, () => expect(mapOf(ref.current!)?.name).toBe(`${HOST}/a/quake2/ratamahatta/Ratamahatta.pcx`))
    await r.update(scene(texture))
    await until(r, () => expect(mapOf(ref.current!)).toBe(texture))
    await r.update(scene(null))
    await until(r, () => expect(mapOf(ref.current!)).toBeNull())
  })

  it('an index the model does not have shows the checkerboard and warns once', async () => {
    serve()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const ref = createRef<Group>()
    const r = await mount(
      <Suspense fallback={null}>
        <MD2Model ref={ref} url={RATAMAHATTA} skin={0} />
      </Suspense>,
    )
    await until(r, () => expect(mapOf(ref.current!)).toBe(getMissingSkinTexture()))
    await r.advanceFrames(3, 0.1)
    const calls = warn.mock.calls.filter(([message]) => String(message).includes('has no skin 0'))
    expect(calls).toHaveLength(1)
    expect(String(calls[0]![0])).toContain('names no skins')
  })

  it('switching skins keeps the parsed model and the geometry; only the material map changes', async () => {
    let release!: () => void
    const gate = { path: '/a/quake2/ogro/khorne.pcx', promise: new Promise<void>((resolve) => (release = resolve)) }
    const server = serve({}, gate)
    const ref = createRef<Group>()
    const scene = (skin: number) => (
      <Suspense fallback={null}>
        <MD2Model ref={ref} url={OGRO} skin={skin} animation="stand" />
      </Suspense>
    )
    const r = await mount(scene(0))
    await until(r, () => expect(mapOf(ref.current!)).toBeTruthy())
    const mesh = meshOf(ref.current!)
    const { geometry, material } = mesh
    const model = useMD2.peek(OGRO)
    const igdosh = mapOf(ref.current!)

    await r.update(scene(8))
    await r.advanceFrames(2, 0.05)
    // While khorne.pcx is still downloading, igdosh stays on screen (the model is not hidden).
    expect(mapOf(ref.current!)).toBe(igdosh)
    expect(ref.current!.visible).toBe(true)
    await ReactThreeTestRenderer.act(async () => {
      release()
      await gate.promise
    })
    await until(r, () => expect(mapOf(ref.current!)!.name).toBe(`${HOST}/a/quake2/ogro/khorne.pcx`))

    await r.update(scene(0))
    await until(r, () => expect(mapOf(ref.current!)).toBe(igdosh))
    expect(meshOf(ref.current!)).toBe(mesh)
    expect(mesh.geometry).toBe(geometry)
    expect(mesh.material).toBe(material)
    expect(useMD2.peek(OGRO)).toBe(model)
    expect(server.requests.filter((path) => path.toLowerCase().endsWith('.md2'))).toHaveLength(1)
    expect(server.requests.filter((path) => path === '/a/quake2/ogro/igdosh.pcx')).toHaveLength(1)
  })

  it('unmounting disposes neither cached skins nor the checkerboard', async () => {
    serve()
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const dispose = vi.spyOn(Texture.prototype, 'dispose')
    const a = createRef<Group>()
    const b = createRef<Group>()
    const r = await mount(
      <Suspense fallback={null}>
        <MD2Model ref={a} url={OGRO} skin={3} />
        <MD2Model ref={b} url={BLOODSPIDER} skin=".bloodspider4" />
      </Suspense>,
    )
    await until(r, () => expect(a.current && b.current).toBeTruthy())
    expect(mapOf(b.current!)).toBe(getMissingSkinTexture())
    const freedom = mapOf(a.current!)
    expect(freedom!.name).toBe(`${HOST}/a/quake2/ogro/freedom.pcx`)
    await r.unmount()
    expect(dispose).not.toHaveBeenCalled()
    useMD2Skin.clear()
    // Only an explicit clear() disposes cached textures, and never the shared checkerboard.
    expect(dispose.mock.contexts).toContain(freedom)
    expect(dispose.mock.contexts).not.toContain(getMissingSkinTexture())
  })

  it('a skin URL that fails draws the model with the checkerboard, warns once and calls onSkinError; the boundary stays quiet', async () => {
    serve()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const caught: unknown[] = []
    const skinErrors: MD2Error[] = []
    const url = `${HOST}/a/quake2/ogro/nobody.pcx`
    const ref = createRef<Group>()
    const r = await mount(
      <Boundary onError={(error) => caught.push(error)}>
        <Suspense fallback={null}>
          <MD2Model ref={ref} url={OGRO} skin={url} onSkinError={(error) => skinErrors.push(error)} />
        </Suspense>
      </Boundary>,
    )
    await until(r, () => expect(skinErrors).toHaveLength(1))
    expect(caught).toEqual([])
    expect(skinErrors[0]!.code).toBe('LOAD_FAILED')
    expect(skinErrors[0]!.message).toContain(url)
    expect(((ref.current!.children[0] as Mesh).material as MeshLambertMaterial).map).toBe(getMissingSkinTexture())
    expect(warn.mock.calls.filter(([message]) => String(message).includes(url))).toHaveLength(1)
  })

  it('a bare skin file name is looked for next to the model, not the page', async () => {
    const server = serve()
    const ref = createRef<Group>()
    const r = await mount(
      <Suspense fallback={null}>
        <MD2Model ref={ref} url={OGRO} skin="khorne.pcx" />
      </Suspense>,
    )
    await until(r, () =>
      expect(((ref.current?.children[0] as Mesh | undefined)?.material as MeshLambertMaterial | undefined)?.map?.name).toBe(
        `${HOST}/a/quake2/ogro/khorne.pcx`,
      ),
    )
    expect(server.requests).toContain('/a/quake2/ogro/khorne.pcx')
  })
})

describe('skins past the GPU limit', () => {
  it("a PCX larger than the renderer's MAX_TEXTURE_SIZE is resampled to fit, pixels point-sampled, with one warning", () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const image = decodePCX(readAsset('quake2/ogro/igdosh.pcx'))
    const loader = new MD2SkinLoader()
    loader.maxTextureSize = image.width / 2
    const texture = loader.parse(readAsset('quake2/ogro/igdosh.pcx'), 'igdosh.pcx')
    expect([texture.image.width, texture.image.height]).toEqual([image.width / 2, image.height / 2])
    expect(warn).toHaveBeenCalledTimes(1)
    expect(String(warn.mock.calls[0]![0])).toContain(
      `${image.width} × ${image.height}, past this GPU's MAX_TEXTURE_SIZE of ${image.width / 2}`,
    )
    // Texel (x, y) of the half-size skin is texel (2x + 1, 2y + 1) of the original (rows stored bottom-up).
    const small = texture.image.data as Uint8Array
    const w = image.width / 2
    const h = image.height / 2
    for (const [x, y] of [
      [0, 0],
      [10, 7],
      [w - 1, h - 1],
    ] as const) {
      const at = ((h - 1 - y) * w + x) * 4
      const from = ((2 * y + 1) * image.width + 2 * x + 1) * 4
      expect([...small.subarray(at, at + 4)]).toEqual([...image.data.subarray(from, from + 4)])
    }
  })
})
