import { describe, expect, it } from 'vitest'
import { sniffImageType } from '../../../src/core/images/decodedImage'
import { decodePCX, decodePCXIndexed } from '../../../src/core/images/pcx'
import { decodeTGA } from '../../../src/core/images/tga'
import { readAsset } from '../../support/assets'
import { expectMD2Error } from '../../support/errors'
import { fuzzImageDecoder } from '../../support/image-fuzz'

// ---------------------------------------------------------------------------------------------
// Helpers: TGA files written byte by byte

interface TGASpec {
  imageType: number
  width: number
  height: number
  pixelDepth: number
  descriptor?: number
  id?: number[]
  colorMapType?: number
  colorMapFirst?: number
  colorMapLength?: number
  colorMapEntrySize?: number
  colorMap?: number[]
  /** Everything after the colour map: pixels or RLE packets (and any footer). */
  pixels: number[]
}

function makeTGA(spec: TGASpec): Uint8Array {
  const header = new Uint8Array(18)
  const view = new DataView(header.buffer)
  const colorMap = spec.colorMap ?? []
  const entryBytes = Math.ceil((spec.colorMapEntrySize ?? 0) / 8)
  header[0] = spec.id?.length ?? 0
  header[1] = spec.colorMapType ?? (spec.colorMap === undefined ? 0 : 1)
  header[2] = spec.imageType
  view.setUint16(3, spec.colorMapFirst ?? 0, true)
  view.setUint16(5, spec.colorMapLength ?? (entryBytes > 0 ? colorMap.length / entryBytes : 0), true)
  header[7] = spec.colorMapEntrySize ?? 0
  view.setUint16(12, spec.width, true)
  view.setUint16(14, spec.height, true)
  header[16] = spec.pixelDepth
  header[17] = spec.descriptor ?? 0
  return Uint8Array.from([...header, ...(spec.id ?? []), ...colorMap, ...spec.pixels])
}

type RGBA = readonly [number, number, number, number]

/** The 3×2 test picture, top row first. */
const TOP: RGBA[] = [
  [255, 0, 0, 255],
  [0, 255, 0, 255],
  [0, 0, 255, 255],
]
const BOTTOM: RGBA[] = [
  [255, 255, 255, 255],
  [0, 0, 0, 255],
  [128, 64, 32, 255],
]
const PICTURE = [...TOP, ...BOTTOM].flat()

const bgr = (p: RGBA) => [p[2], p[1], p[0]]
const bgra = (p: RGBA) => [p[2], p[1], p[0], p[3]]

/** The test picture as a 24-bit true-colour TGA stores it by default: BGR, bottom row first. */
const PICTURE_TGA: TGASpec = { imageType: 2, width: 3, height: 2, pixelDepth: 24, pixels: [...BOTTOM, ...TOP].flatMap(bgr) }

/**
 * Rows `[top, bottom]` (as `toBytes` writes a pixel) stored both ways: bottom row first, and top row
 * first (descriptor bit 5 set).
 */
function bothOrigins(
  spec: Omit<TGASpec, 'pixels'>,
  [top, bottom]: [RGBA[], RGBA[]],
  toBytes: (p: RGBA) => number[],
): [Uint8Array, Uint8Array] {
  return [
    makeTGA({ ...spec, pixels: [...bottom, ...top].flatMap(toBytes) }),
    makeTGA({ ...spec, descriptor: (spec.descriptor ?? 0) | 0x20, pixels: [...top, ...bottom].flatMap(toBytes) }),
  ]
}

/** A 16-bit A1R5G5B5 pixel, little-endian. */
function argb1555(attribute: 0 | 1, r: number, g: number, b: number): number[] {
  const value = (attribute << 15) | (r << 10) | (g << 5) | b
  return [value & 0xff, value >> 8]
}

/** A BAD_IMAGE of the TGA decoder naming `part`. */
const expectBadImage = (run: () => unknown, part: string) => expectMD2Error(run, 'BAD_IMAGE', { section: 'tga', text: part })

function decoded(bytes: Uint8Array, options = {}): number[] {
  return [...decodeTGA(bytes, options).data]
}

/** A test-side TGA RLE encoder: runs of 2+ equal pixels become run packets, the rest raw packets. */
function encodeRLE(pixels: Uint8Array, bytesPerPixel: number): number[] {
  const count = pixels.length / bytesPerPixel
  const same = (a: number, b: number) =>
    pixels.subarray(a * bytesPerPixel, a * bytesPerPixel + bytesPerPixel).every((v, k) => v === pixels[b * bytesPerPixel + k])
  const out: number[] = []
  let i = 0
  while (i < count) {
    let run = 1
    while (i + run < count && run < 128 && same(i, i + run)) run++
    if (run >= 2) {
      out.push(0x80 | (run - 1), ...pixels.subarray(i * bytesPerPixel, i * bytesPerPixel + bytesPerPixel))
      i += run
      continue
    }
    let literal = 1
    while (i + literal < count && literal < 128 && !(i + literal + 1 < count && same(i + literal, i + literal + 1))) literal++
    out.push(literal - 1, ...pixels.subarray(i * bytesPerPixel, (i + literal) * bytesPerPixel))
    i += literal
  }
  return out
}

// ---------------------------------------------------------------------------------------------

describe('decodeTGA: true-colour (types 2 and 10)', () => {
  it('24-bit, bottom-left origin (rows stored bottom first)', () => {
    const tga = makeTGA(PICTURE_TGA)
    expect(decoded(tga)).toEqual(PICTURE)
    expect(sniffImageType(tga)).toBe('tga')
  })

  it('24-bit, top-left origin (descriptor bit 5)', () => {
    const tga = makeTGA({ imageType: 2, width: 3, height: 2, pixelDepth: 24, descriptor: 0x20, pixels: [...TOP, ...BOTTOM].flatMap(bgr) })
    expect(decoded(tga)).toEqual(PICTURE)
  })

  it('32-bit with an 8-bit alpha channel, both origins', () => {
    // The test picture with an alpha of its own at each pixel.
    const withAlpha = (row: RGBA[], alphas: number[]) => row.map(([r, g, b], i): RGBA => [r, g, b, alphas[i]!])
    const top = withAlpha(TOP, [255, 128, 0])
    const bottom = withAlpha(BOTTOM, [10, 20, 30])
    const expected = [...top, ...bottom].flat()
    const [bottomUp, topDown] = bothOrigins({ imageType: 2, width: 3, height: 2, pixelDepth: 32, descriptor: 0x08 }, [top, bottom], bgra)
    expect(decoded(bottomUp)).toEqual(expected)
    expect(decoded(topDown)).toEqual(expected)
  })

  it('32-bit keeps the alpha byte even when the descriptor claims 0 alpha bits; ignoreAlpha makes it opaque', () => {
    const tga = makeTGA({ imageType: 2, width: 2, height: 1, pixelDepth: 32, descriptor: 0x00, pixels: [30, 20, 10, 0, 60, 50, 40, 77] })
    expect(decoded(tga)).toEqual([10, 20, 30, 0, 40, 50, 60, 77])
    expect(decoded(tga, { ignoreAlpha: true })).toEqual([10, 20, 30, 255, 40, 50, 60, 255])
  })

  it('16-bit A1R5G5B5 with 1 alpha bit: the attribute bit is alpha; 5-bit channels widen to 8 bits', () => {
    // 31 → 255, 16 → 132, 10 → 82, 1 → 8, 0 → 0 (the top bits repeated into the low bits).
    const pixels = [...argb1555(1, 31, 16, 1), ...argb1555(0, 10, 0, 31), ...argb1555(1, 0, 0, 0)]
    const tga = makeTGA({ imageType: 2, width: 3, height: 1, pixelDepth: 16, descriptor: 0x21, pixels })
    expect(decoded(tga)).toEqual([255, 132, 8, 255, 82, 0, 255, 0, 0, 0, 0, 255])
  })

  it('16-bit without alpha bits in the descriptor, and 15-bit: the attribute bit is ignored, all opaque', () => {
    const pixels = [...argb1555(0, 31, 16, 1), ...argb1555(1, 10, 0, 31)]
    for (const [pixelDepth, descriptor] of [
      [16, 0x20],
      [15, 0x20],
      [15, 0x21],
    ] as const) {
      const tga = makeTGA({ imageType: 2, width: 2, height: 1, pixelDepth, descriptor, pixels })
      expect(decoded(tga), `${pixelDepth}-bit, descriptor ${descriptor}`).toEqual([255, 132, 8, 255, 82, 0, 255, 255])
    }
  })

  it('right-to-left rows (descriptor bit 4), with either vertical origin', () => {
    const reversed = (row: RGBA[]) => [...row].reverse()
    const rows: [RGBA[], RGBA[]] = [reversed(TOP), reversed(BOTTOM)]
    const [bottomUp, topDown] = bothOrigins({ imageType: 2, width: 3, height: 2, pixelDepth: 24, descriptor: 0x10 }, rows, bgr)
    expect(decoded(bottomUp)).toEqual(PICTURE)
    expect(decoded(topDown)).toEqual(PICTURE)
  })

  it('skips the image ID field and a colour map the true-colour image does not use; ignores a TGA 2.0 footer', () => {
    const footer = [0, 0, 0, 0, 0, 0, 0, 0, ...[...'TRUEVISION-XFILE.'].map((c) => c.charCodeAt(0)), 0]
    const unused = { id: [1, 2, 3, 4, 5], colorMapEntrySize: 24, colorMap: [9, 9, 9, 8, 8, 8] }
    const tga = makeTGA({ ...PICTURE_TGA, ...unused, pixels: [...PICTURE_TGA.pixels, ...footer] })
    expect(decoded(tga)).toEqual(PICTURE)
  })

  it('type 10, 24-bit RLE: run and raw packets crossing row ends, bottom-left', () => {
    // File order (bottom row first): W K C | R G B. Packets: raw 2 [W, K], raw 2 [C, R] (crosses the
    // row end), a run of 1 [G], raw 1 [B].
    const [W, K, C] = BOTTOM as [RGBA, RGBA, RGBA]
    const [R, G, B] = TOP as [RGBA, RGBA, RGBA]
    const pixels = [0x01, ...bgr(W), ...bgr(K), 0x01, ...bgr(C), ...bgr(R), 0x80, ...bgr(G), 0x00, ...bgr(B)]
    const tga = makeTGA({ imageType: 10, width: 3, height: 2, pixelDepth: 24, pixels })
    expect(decoded(tga)).toEqual(PICTURE)
  })

  it.each<[string, Omit<TGASpec, 'imageType'>, number[]]>([
    [
      // 3×2 top-down: a run of 5 red pixels (the whole top row and 2 of the bottom), then 1 raw blue.
      'one run packet covering more than a row',
      { width: 3, height: 2, pixelDepth: 24, descriptor: 0x20, pixels: [0x84, 0, 0, 255, 0x00, 255, 0, 0] },
      [...Array<number[]>(5).fill([255, 0, 0, 255]).flat(), 0, 0, 255, 255],
    ],
    [
      '32-bit RLE keeps alpha',
      { width: 2, height: 2, pixelDepth: 32, descriptor: 0x28, pixels: [0x82, 1, 2, 3, 4, 0x00, 5, 6, 7, 8] },
      [3, 2, 1, 4, 3, 2, 1, 4, 3, 2, 1, 4, 7, 6, 5, 8],
    ],
    [
      '16-bit RLE unpacks 5-5-5',
      { width: 3, height: 1, pixelDepth: 16, descriptor: 0x21, pixels: [0x81, ...argb1555(1, 31, 0, 0), 0x00, ...argb1555(0, 0, 0, 16)] },
      [255, 0, 0, 255, 255, 0, 0, 255, 0, 0, 132, 0],
    ],
  ])('type 10: %s', (_, spec, expected) => {
    expect(decoded(makeTGA({ imageType: 10, ...spec }))).toEqual(expected)
  })

  it('clips a last packet that overshoots the image', () => {
    const tga = makeTGA({ imageType: 10, width: 2, height: 1, pixelDepth: 24, pixels: [0xff, 1, 2, 3] })
    expect(decoded(tga)).toEqual([3, 2, 1, 255, 3, 2, 1, 255])
    const raw = makeTGA({ imageType: 10, width: 1, height: 1, pixelDepth: 24, pixels: [0x02, 1, 2, 3] })
    expect(decoded(raw)).toEqual([3, 2, 1, 255])
  })
})

describe('decodeTGA: colour-mapped (types 1 and 9)', () => {
  // Entries 2..5 (colorMapFirst = 2): red, green, blue, grey (24-bit BGR).
  const map24 = [0, 0, 255, 0, 255, 0, 255, 0, 0, 100, 100, 100]
  const colours = { 2: [255, 0, 0, 255], 3: [0, 255, 0, 255], 4: [0, 0, 255, 255], 5: [100, 100, 100, 255] } as Record<number, number[]>
  /** An image of 8-bit indices (type 1, bottom-left unless `spec` says otherwise) into map24. */
  const intoMap24 = (spec: Pick<TGASpec, 'width' | 'height' | 'pixels'> & Partial<TGASpec>) =>
    makeTGA({ imageType: 1, pixelDepth: 8, colorMapFirst: 2, colorMapEntrySize: 24, colorMap: map24, ...spec })

  it('8-bit indices into a 24-bit colour map that starts at entry 2, bottom-left', () => {
    // Top row: 2 3 4; bottom row: 5 5 2. Stored bottom first.
    const tga = intoMap24({ width: 3, height: 2, pixels: [5, 5, 2, 2, 3, 4] })
    expect(decoded(tga)).toEqual([2, 3, 4, 5, 5, 2].flatMap((i) => colours[i]!))
    expect(sniffImageType(tga)).toBe('tga')
  })

  it('32-bit colour map entries carry alpha', () => {
    const map32 = [10, 20, 30, 0, 40, 50, 60, 128, 70, 80, 90, 255]
    const tga = makeTGA({
      imageType: 1,
      width: 4,
      height: 1,
      pixelDepth: 8,
      descriptor: 0x28,
      colorMapEntrySize: 32,
      colorMap: map32,
      pixels: [0, 1, 2, 1],
    })
    expect(decoded(tga)).toEqual([30, 20, 10, 0, 60, 50, 40, 128, 90, 80, 70, 255, 60, 50, 40, 128])
  })

  it('16-bit and 15-bit colour map entries', () => {
    const map16 = [...argb1555(0, 31, 0, 0), ...argb1555(1, 0, 16, 0)]
    // 16-bit entries with an alpha bit in the descriptor keep the attribute bit as alpha; 15-bit ones are opaque.
    for (const [colorMapEntrySize, descriptor, expected] of [
      [16, 0x21, [255, 0, 0, 0, 0, 132, 0, 255]],
      [15, 0x20, [255, 0, 0, 255, 0, 132, 0, 255]],
    ] as const) {
      const tga = makeTGA({
        imageType: 1,
        width: 2,
        height: 1,
        pixelDepth: 8,
        descriptor,
        colorMapEntrySize,
        colorMap: map16,
        pixels: [0, 1],
      })
      expect(decoded(tga), `${colorMapEntrySize}-bit entries`).toEqual(expected)
    }
  })

  it('16-bit indices', () => {
    const tga = intoMap24({ width: 2, height: 1, pixelDepth: 16, pixels: [5, 0, 2, 0] })
    expect(decoded(tga)).toEqual([...colours[5]!, ...colours[2]!])
  })

  it('type 9: RLE indices with a run crossing the row end', () => {
    // Top-down 2×2: run of 3 × index 4, then raw 1 × index 3.
    const tga = intoMap24({ imageType: 9, width: 2, height: 2, descriptor: 0x20, pixels: [0x82, 4, 0x00, 3] })
    expect(decoded(tga)).toEqual([4, 4, 4, 3].flatMap((i) => colours[i]!))
  })

  it('refuses indices outside the colour map, below its first entry or past its end', () => {
    for (const index of [1, 6]) {
      const tga = intoMap24({ width: 1, height: 1, pixels: [index] })
      expect(expectBadImage(() => decodeTGA(tga), 'tga colour map').message).toContain(`index ${index}`)
    }
  })
})

describe('decodeTGA: grey (types 3 and 11)', () => {
  it('8-bit grey, bottom-left', () => {
    const tga = makeTGA({ imageType: 3, width: 2, height: 2, pixelDepth: 8, pixels: [30, 40, 10, 20] })
    expect(decoded(tga)).toEqual([10, 10, 10, 255, 20, 20, 20, 255, 30, 30, 30, 255, 40, 40, 40, 255])
  })

  it('16-bit grey + alpha', () => {
    const tga = makeTGA({ imageType: 3, width: 2, height: 1, pixelDepth: 16, descriptor: 0x28, pixels: [200, 0, 50, 99] })
    expect(decoded(tga)).toEqual([200, 200, 200, 0, 50, 50, 50, 99])
  })

  it('type 11: RLE grey with packets crossing rows', () => {
    // Top-down 3×2: raw 2 [1, 2], run 3 × 7 (crosses into row 2), raw 1 [9].
    const tga = makeTGA({ imageType: 11, width: 3, height: 2, pixelDepth: 8, descriptor: 0x20, pixels: [0x01, 1, 2, 0x82, 7, 0x00, 9] })
    expect(decoded(tga)).toEqual([1, 2, 7, 7, 7, 9].flatMap((g) => [g, g, g, 255]))
  })
})

describe('decodeTGA on real pictures (PCX skins re-encoded as TGA by the test)', () => {
  // A real skin through every TGA layout must give exactly what the PCX decoder gives.
  const skins = ['quake2/ogro/g_shotgun.pcx', 'quake2/ratamahatta/Gearwhore.pcx', 'quake2/sydney/5thelem.pcx']

  function bottomUp(rows: Uint8Array, width: number, height: number, bytesPerPixel: number): Uint8Array {
    const out = new Uint8Array(rows.length)
    const stride = width * bytesPerPixel
    for (let y = 0; y < height; y++) out.set(rows.subarray(y * stride, y * stride + stride), (height - 1 - y) * stride)
    return out
  }

  it.each(skins)('%s', (path) => {
    const pcx = readAsset(path)
    const expected = decodePCX(pcx, { transparentIndex: 255 })
    const { width, height, indices, palette } = decodePCXIndexed(pcx)
    const bgraRows = new Uint8Array(width * height * 4)
    for (let o = 0; o < bgraRows.length; o += 4) {
      bgraRows.set([expected.data[o + 2]!, expected.data[o + 1]!, expected.data[o]!, expected.data[o + 3]!], o)
    }
    const bgrRows = bgraRows.filter((_, k) => k % 4 !== 3)
    // Colour map: the PCX palette as BGRA, with entry 255 transparent.
    const colorMap = Array.from({ length: 256 }, (_, i) => [
      palette[i * 3 + 2]!,
      palette[i * 3 + 1]!,
      palette[i * 3]!,
      i === 255 ? 0 : 255,
    ]).flat()
    const size = { width, height }

    const raw32 = makeTGA({ imageType: 2, ...size, pixelDepth: 32, descriptor: 0x08, pixels: [...bottomUp(bgraRows, width, height, 4)] })
    const rle32 = makeTGA({ imageType: 10, ...size, pixelDepth: 32, descriptor: 0x28, pixels: encodeRLE(bgraRows, 4) })
    const mapped = makeTGA({
      imageType: 1,
      ...size,
      pixelDepth: 8,
      descriptor: 0x08,
      colorMapEntrySize: 32,
      colorMap,
      pixels: [...bottomUp(indices, width, height, 1)],
    })
    const mappedRLE = makeTGA({
      imageType: 9,
      ...size,
      pixelDepth: 8,
      descriptor: 0x28,
      colorMapEntrySize: 32,
      colorMap,
      pixels: encodeRLE(indices, 1),
    })
    for (const [name, tga] of Object.entries({ raw32, rle32, mapped, mappedRLE })) {
      const image = decodeTGA(tga)
      expect([image.width, image.height], name).toEqual([width, height])
      expect(Buffer.compare(image.data, expected.data), name).toBe(0)
    }
    // 24-bit RLE: the same colours, all opaque.
    const rle24 = decodeTGA(makeTGA({ imageType: 10, ...size, pixelDepth: 24, pixels: encodeRLE(bottomUp(bgrRows, width, height, 3), 3) }))
    expect(Buffer.compare(rle24.data, decodePCX(pcx).data)).toBe(0)
  })
})

describe('decodeTGA on damaged files', () => {
  const good = makeTGA(PICTURE_TGA)

  function patched(at: number, ...values: number[]): Uint8Array {
    const copy = good.slice()
    copy.set(values, at)
    return copy
  }

  it('truncated headers', () => {
    for (const length of [0, 1, 17]) expect(expectBadImage(() => decodeTGA(good.subarray(0, length)), 'tga header').offset).toBe(0)
  })

  it('unknown colour map types and unsupported image types', () => {
    expect(expectBadImage(() => decodeTGA(patched(1, 2)), 'tga header').offset).toBe(1)
    expect(expectBadImage(() => decodeTGA(patched(2, 0)), 'tga header').message).toContain('no image data')
    for (const type of [4, 8, 32, 33, 255]) {
      expect(expectBadImage(() => decodeTGA(patched(2, type)), 'tga header').message).toContain(`image type ${type} is not supported`)
    }
  })

  it('unsupported pixel depths and colour map entry sizes', () => {
    expect(expectBadImage(() => decodeTGA(patched(16, 8)), 'tga header').offset).toBe(16)
    expect(expectBadImage(() => decodeTGA(patched(16, 64)), 'tga header').offset).toBe(16)
    expect(expectBadImage(() => decodeTGA(patched(2, 3)), 'tga header').message).toContain('grey pixels of 24 bits')
    const mapped = (spec: Partial<TGASpec>) =>
      makeTGA({ imageType: 1, width: 1, height: 1, pixelDepth: 8, colorMapEntrySize: 24, colorMap: [1, 2, 3], pixels: [0], ...spec })
    expect(decodeTGA(mapped({})).data).toEqual(Uint8Array.from([3, 2, 1, 255]))
    expect(expectBadImage(() => decodeTGA(mapped({ pixelDepth: 24 })), 'tga header').message).toContain('indices of 24 bits')
    expect(expectBadImage(() => decodeTGA(mapped({ colorMapEntrySize: 8 })), 'tga header').offset).toBe(7)
    expect(expectBadImage(() => decodeTGA(mapped({ colorMapType: 0 })), 'tga header').message).toContain('has no colour map')
  })

  it('zero width or height, and interleaved rows', () => {
    expect(expectBadImage(() => decodeTGA(patched(12, 0, 0)), 'tga header').message).toContain('0×2')
    expect(expectBadImage(() => decodeTGA(patched(14, 0, 0)), 'tga header').message).toContain('3×0')
    expect(expectBadImage(() => decodeTGA(patched(17, 0x40)), 'tga header').offset).toBe(17)
  })

  it('an image ID field or colour map running past the end', () => {
    expect(expectBadImage(() => decodeTGA(patched(0, 200)), 'tga id').offset).toBe(18)
    const mapped = makeTGA({
      imageType: 1,
      width: 1,
      height: 1,
      pixelDepth: 8,
      colorMapEntrySize: 24,
      colorMapLength: 300,
      colorMap: [1, 2, 3],
      pixels: [0],
    })
    expect(expectBadImage(() => decodeTGA(mapped), 'tga colour map').offset).toBe(18)
  })

  it('truncated uncompressed pixels', () => {
    for (const cut of [1, 3, 17]) {
      const error = expectBadImage(() => decodeTGA(good.subarray(0, good.length - cut)), 'tga pixels')
      expect(error.message).toContain('need 18 bytes')
    }
  })

  it('RLE data that ends early, a run packet without its value, a raw packet past the end', () => {
    const rle = (pixels: number[]) => makeTGA({ imageType: 10, width: 4, height: 4, pixelDepth: 24, pixels })
    expect(expectBadImage(() => decodeTGA(rle([0x82, 1, 2, 3])), 'tga rle').message).toContain('after 3 of 16 pixels')
    expect(expectBadImage(() => decodeTGA(rle([0x82, 1, 2, 3, 0x85, 1, 2])), 'tga rle').offset).toBe(22)
    expect(expectBadImage(() => decodeTGA(rle([0x82, 1, 2, 3, 0x02, 1, 2, 3, 4])), 'tga rle').message).toContain('raw packet')
  })

  it('absurd sizes are refused before anything is allocated', () => {
    const before = process.memoryUsage().arrayBuffers
    const pad = new Array<number>(182).fill(0x7f)
    const huge = (imageType: number, pixelDepth: number) => makeTGA({ imageType, width: 65535, height: 65535, pixelDepth, pixels: pad })
    expect(huge(2, 32).length).toBe(200)
    // Without the pixel cap, what the bytes could hold decides; with it (the default), the header.
    const NO_CAP = { maxPixels: Infinity }
    expectBadImage(() => decodeTGA(huge(2, 32), NO_CAP), 'tga pixels')
    expect(expectBadImage(() => decodeTGA(huge(10, 32), NO_CAP), 'tga rle').message).toContain(
      '65535×65535 pixels cannot come from 182 bytes',
    )
    expectBadImage(() => decodeTGA(huge(11, 8), NO_CAP), 'tga rle')
    expect(expectBadImage(() => decodeTGA(huge(10, 32)), 'tga header').message).toContain('65535 × 65535 pixels is more than the limit')
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(16 * 1024 * 1024)
  })

  it('not a byte array: BAD_ARGUMENT', () => {
    expect(() => decodeTGA(null as unknown as Uint8Array)).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }))
  })
})

describe('decodeTGA fuzzing (seeded)', () => {
  const SEED = 4242
  const shotgun = decodePCXIndexed(readAsset('quake2/ogro/g_shotgun.pcx'))
  const sources: Record<string, Uint8Array> = {
    'true-colour 24': makeTGA(PICTURE_TGA),
    'grey RLE': makeTGA({ imageType: 11, width: 3, height: 2, pixelDepth: 8, descriptor: 0x20, pixels: [0x01, 1, 2, 0x82, 7, 0x00, 9] }),
    '16-bit RLE': makeTGA({ imageType: 10, width: 3, height: 1, pixelDepth: 16, descriptor: 0x21, pixels: [0x81, 0, 0x7c, 0x00, 0x10, 0] }),
    'g_shotgun as mapped RLE': makeTGA({
      imageType: 9,
      width: shotgun.width,
      height: shotgun.height,
      pixelDepth: 8,
      colorMapEntrySize: 24,
      colorMap: [...shotgun.palette],
      pixels: encodeRLE(shotgun.indices, 1),
    }),
  }

  it('returns a well-formed image or throws MD2Error BAD_IMAGE, for 400 damaged files', () => {
    fuzzImageDecoder('TGA', sources, { headerSize: 18, maxEdits: 8, seed: SEED }, (bytes, ignoreAlpha) => decodeTGA(bytes, { ignoreAlpha }))
  })
})

describe('sniffImageType and TGA', () => {
  it('only calls a file TGA when its header is consistent', () => {
    const tga = makeTGA({ imageType: 10, width: 2, height: 2, pixelDepth: 32, pixels: [0x83, 1, 2, 3, 4] })
    expect(sniffImageType(tga)).toBe('tga')
    expect(sniffImageType(tga.subarray(0, 18))).toBeUndefined() // no pixel data
    const badDepth = tga.slice()
    badDepth[16] = 12
    expect(sniffImageType(badDepth)).toBeUndefined()
    const mappedWithoutMap = makeTGA({ imageType: 1, width: 1, height: 1, pixelDepth: 8, pixels: [0] })
    expect(sniffImageType(mappedWithoutMap)).toBeUndefined()
  })
})
