import { Suspense } from 'react'
import { DataTexture, SRGBColorSpace, Texture } from 'three'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MD2Error, parseMD2 } from '../../src/core/internal'
import { MD2Model } from '../../src/react/MD2Model'
import { useMD2 } from '../../src/react/loading/useMD2'
import { useMD2Skin } from '../../src/react/loading/useMD2Skin'
import { getMissingSkinTexture } from '../../src/three/loaders/MD2SkinLoader'
import { readAsset } from '../support/assets'
import { mount } from '../support/render'
import { BLOODSPIDER, HOST, OGRO, serve, tinyTGA, until } from '../support/skin-server'

afterEach(async () => {
  vi.restoreAllMocks()
  useMD2Skin.clear()
  useMD2.clear()
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
