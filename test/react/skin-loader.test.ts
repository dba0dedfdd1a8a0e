import { DataTexture, LinearFilter, LinearMipmapLinearFilter, LoadingManager, SRGBColorSpace, type BufferAttribute } from 'three'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MD2Error, decodePCX, parseMD2 } from '../../src/core/internal'
import { useMD2 } from '../../src/react/loading/useMD2'
import { useMD2Skin } from '../../src/react/loading/useMD2Skin'
import { createMD2Geometry } from '../../src/three/mesh/MD2Geometry'
import { MD2SkinLoader, createSkinTexture, skinKindOf } from '../../src/three/loaders/MD2SkinLoader'
import { readAsset } from '../support/assets'
import { HOST, serve, tinyTGA } from '../support/skin-server'

afterEach(async () => {
  vi.restoreAllMocks()
  useMD2Skin.clear()
  useMD2.clear()
})

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
