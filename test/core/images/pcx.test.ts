import { createHash } from 'node:crypto'
import { deflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { sniffImageType } from '../../../src/core/images/decodedImage'
import { decodePCX, decodePCXIndexed } from '../../../src/core/images/pcx'
import { listAssets, readAsset } from '../../support/assets'
import { readPNG } from '../../support/png-reference'
import { makePCX } from '../../support/pcx'
import { expectMD2Error } from '../../support/errors'
import { fuzzImageDecoder } from '../../support/image-fuzz'

const ALL_PCX = listAssets('pcx')

// ---------------------------------------------------------------------------------------------
// Helpers

/** A palette whose entry i is (i, 255 − i, i ^ 0x55), so every index has a distinct, known colour. */
const TEST_PALETTE = Uint8Array.from({ length: 768 }, (_, k) => {
  const i = Math.floor(k / 3)
  return [i, 255 - i, i ^ 0x55][k % 3]!
})

function paletteRGBA(indices: number[], transparent?: number): number[] {
  return indices.flatMap((i) => [i, 255 - i, i ^ 0x55, i === transparent ? 0 : 255])
}

/** A BAD_IMAGE naming `part`, whose first word is the file part. */
const expectBadImage = (run: () => unknown, part: string) => expectMD2Error(run, 'BAD_IMAGE', { section: part.split(' ')[0], text: part })

function header(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, 128)
}

function baseName(path: string): string {
  return path
    .slice(path.lastIndexOf('/') + 1)
    .replace(/\.[^.]*$/, '')
    .toLowerCase()
}

// ---------------------------------------------------------------------------------------------

describe('decodePCX on every real skin', () => {
  it('finds the bundled skins, including upper-case .PCX names', () => {
    expect(ALL_PCX.length).toBeGreaterThanOrEqual(175)
    expect(ALL_PCX.filter((path) => path.endsWith('.PCX')).length).toBeGreaterThanOrEqual(10)
  })

  it.each(ALL_PCX)('%s', (path) => {
    const bytes = readAsset(path)
    const view = header(bytes)
    const width = view.getUint16(8, true) - view.getUint16(4, true) + 1
    const height = view.getUint16(10, true) - view.getUint16(6, true) + 1
    const image = decodePCX(bytes)
    expect([image.width, image.height]).toEqual([width, height])
    expect(image.data.length).toBe(width * height * 4)
    const indexed = decodePCXIndexed(bytes)
    expect(indexed.indices.length).toBe(width * height)
    expect(indexed.palette).toEqual(bytes.slice(-768))
    // The RGBA image is the palette applied to the indices, all opaque by default.
    const i = Math.floor((width * height) / 2)
    const index = indexed.indices[i]!
    expect([...image.data.subarray(i * 4, i * 4 + 4)]).toEqual([...indexed.palette.subarray(index * 3, index * 3 + 3), 255])
    expect(image.data.filter((_, k) => k % 4 === 3).every((alpha) => alpha === 255)).toBe(true)
    expect(sniffImageType(bytes)).toBe('pcx')
  })

  it('accepts an ArrayBuffer as well as a Uint8Array view into a larger buffer', () => {
    const bytes = readAsset('quake2/ogro/g_grenade.pcx')
    const padded = new Uint8Array(bytes.length + 10)
    padded.set(bytes, 5)
    const expected = decodePCX(bytes)
    expect(decodePCX(bytes.slice().buffer)).toEqual(expected)
    expect(decodePCX(padded.subarray(5, 5 + bytes.length))).toEqual(expected)
  })
})

describe('PCX palettes without the 0x0C marker (ogro g_grenade, g_hyper, g_shotgun)', () => {
  // These three weapon skins put the palette straight after the pixel data. They use the same Quake
  // II palette as ogro/weapon.pcx, which has its marker: taking the last 768 bytes must give it.
  const markerless = ['quake2/ogro/g_grenade.pcx', 'quake2/ogro/g_hyper.pcx', 'quake2/ogro/g_shotgun.pcx']
  const quake2Palette = decodePCXIndexed(readAsset('quake2/ogro/weapon.pcx')).palette

  it.each(markerless)('%s decodes with the Quake II palette', (path) => {
    const bytes = readAsset(path)
    expect(bytes[bytes.length - 769]).not.toBe(0x0c)
    const indexed = decodePCXIndexed(bytes)
    expect(indexed.palette).toEqual(quake2Palette)
    // Same result as the file with a marker inserted before its palette.
    const withMarker = Uint8Array.from([...bytes.subarray(0, -768), 0x0c, ...bytes.subarray(-768)])
    expect(decodePCX(bytes)).toEqual(decodePCX(withMarker))
  })

  it('g_grenade is a 4×4 image in 8 bytes of RLE whose pixels are known', () => {
    const bytes = readAsset('quake2/ogro/g_grenade.pcx')
    expect(bytes.length).toBe(128 + 8 + 768)
    const indexed = decodePCXIndexed(bytes)
    expect([indexed.width, indexed.height]).toEqual([4, 4])
    // Decode the 8 stream bytes by hand: every count byte ≥ 0xC0 repeats the next byte.
    const stream = [...bytes.subarray(128, 136)]
    const expected: number[] = []
    for (let k = 0; k < stream.length; k++) {
      const b = stream[k]!
      if (b >= 0xc0) expected.push(...Array<number>(b & 0x3f).fill(stream[++k]!))
      else expected.push(b)
    }
    expect([...indexed.indices]).toEqual(expected)
  })
})

describe('decodePCX against the PNG conversions three.js ships', () => {
  const pngs = listAssets('png').filter((path) => /^quake2\/(ogro|ratamahatta)\/png\//.test(path))
  const pairs = pngs.flatMap((png) => {
    const folder = png.slice(0, png.indexOf('/png/'))
    const pcx = ALL_PCX.find(
      (path) => path.startsWith(`${folder}/`) && !path.slice(folder.length + 1).includes('/') && baseName(path) === baseName(png),
    )
    return pcx === undefined ? [] : [[pcx, png] as const]
  })

  it('pairs every PNG that has a PCX counterpart (weapon PNGs w_* have none; JPEGs are skipped)', () => {
    // Observed: 12 ogro skins, 6 ratamahatta skins (weapon.png included). The 10 ratamahatta w_*.png
    // belong to weapon models whose PCX is not in this folder; ogro's grok.jpg and weapon.jpg are lossy.
    expect(pairs.length).toBe(18)
    expect(pngs.length - pairs.length).toBe(10)
    expect(listAssets('jpg').filter((path) => path.includes('/png/'))).toHaveLength(2)
  })

  it.each(pairs)('%s matches %s pixel for pixel', (pcxPath, pngPath) => {
    const reference = readPNG(readAsset(pngPath))
    const image = decodePCX(readAsset(pcxPath))
    expect([image.width, image.height]).toEqual([reference.width, reference.height])
    // These PNGs are palette images without tRNS: fully opaque, as decodePCX is by default.
    expect(reference.hasAlpha).toBe(false)
    const firstDifference = image.data.findIndex((value, k) => value !== reference.data[k])
    expect(firstDifference, `first differing byte (pixel ${Math.floor(firstDifference / 4)})`).toBe(-1)
    // The conversion even kept the palette order, so the raw indices agree too.
    expect(Buffer.compare(decodePCXIndexed(readAsset(pcxPath)).indices, reference.indices!)).toBe(0)
  })
})

describe('png-reference (the second opinion itself)', () => {
  it('undoes all five filter types on a real file (golden hash from a separate Python decoder)', () => {
    const image = readPNG(readAsset('ufoai/wc/wc2.png'))
    expect([image.width, image.height, image.colorType]).toEqual([128, 256, 3])
    expect(createHash('sha256').update(image.data).digest('hex')).toBe('bb0c8367026b2aeee952b356e8952bc2a0043a34853388c5355cb37fd3a28853')
  })

  it('reads an RGB file filtered with Sub, Average and Paeth (golden hash)', () => {
    const image = readPNG(readAsset('ufoai/bloodspider/bloodspider2.png'))
    expect([image.width, image.height, image.colorType]).toEqual([512, 512, 2])
    expect(createHash('sha256').update(image.data).digest('hex')).toBe('ab8512c73104c2256922b940a0e0b538b62c3955f2ae35e8294bcecb02d36765')
  })

  it('reads grey, grey+alpha and RGBA images written with each filter', () => {
    // 3×2 RGBA pixels; each row is stored with a different filter, computed here from the spec.
    const rgba = [10, 20, 30, 255, 200, 100, 50, 0, 7, 8, 9, 128, 1, 2, 3, 4, 250, 240, 230, 220, 60, 70, 80, 90]
    for (const [colorType, channels, pick] of [
      [6, 4, (px: number[]) => px],
      [4, 2, (px: number[]) => [px[0]!, px[3]!]],
      [0, 1, (px: number[]) => [px[0]!]],
    ] as const) {
      const samples = Array.from({ length: 6 }, (_, i) => pick(rgba.slice(i * 4, i * 4 + 4))).flat()
      for (const filters of [
        [0, 1],
        [2, 3],
        [4, 4],
        [3, 2],
      ]) {
        const png = encodePNG(3, 2, colorType, channels, samples, filters)
        const decoded = readPNG(png)
        const expected = Array.from({ length: 6 }, (_, i) => {
          const s = samples.slice(i * channels, i * channels + channels)
          if (colorType === 6) return s
          if (colorType === 4) return [s[0]!, s[0]!, s[0]!, s[1]!]
          return [s[0]!, s[0]!, s[0]!, 255]
        }).flat()
        expect([...decoded.data], `colour type ${colorType}, filters ${filters}`).toEqual(expected)
      }
    }
  })

  it('refuses interlaced images', () => {
    const png = encodePNG(1, 1, 0, 1, [0], [0], 1)
    expect(() => readPNG(png)).toThrow(/interlaced/)
  })
})

/** A test-side PNG writer: applies the given filter to each row (cycling), as the PNG spec defines. */
function encodePNG(
  width: number,
  height: number,
  colorType: number,
  channels: number,
  samples: number[],
  filters: number[],
  interlace = 0,
): Uint8Array {
  const stride = width * channels
  const filtered: number[] = []
  const at = (x: number, y: number) => (x < 0 || y < 0 ? 0 : samples[y * stride + x]!)
  for (let y = 0; y < height; y++) {
    const filter = filters[y % filters.length]!
    filtered.push(filter)
    for (let x = 0; x < stride; x++) {
      const a = at(x - channels, y)
      const b = at(x, y - 1)
      const c = at(x - channels, y - 1)
      const p = a + b - c
      const paeth =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c
      const predictor = [0, a, b, (a + b) >> 1, paeth][filter]!
      filtered.push((at(x, y) - predictor) & 0xff)
    }
  }
  const ihdr = new Uint8Array(13)
  const view = new DataView(ihdr.buffer)
  view.setUint32(0, width)
  view.setUint32(4, height)
  ihdr.set([8, colorType, 0, 0, interlace], 8)
  return Uint8Array.from([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...chunk('IHDR', ihdr),
    ...chunk('IDAT', deflateSync(Uint8Array.from(filtered))),
    ...chunk('IEND', new Uint8Array()),
  ])
}

function chunk(type: string, body: Uint8Array): number[] {
  const typeBytes = [...type].map((ch) => ch.charCodeAt(0))
  const out = new Uint8Array(12 + body.length)
  const view = new DataView(out.buffer)
  view.setUint32(0, body.length)
  out.set(typeBytes, 4)
  out.set(body, 8)
  view.setUint32(8 + body.length, crc32Of(out.subarray(4, 8 + body.length)))
  return [...out]
}

function crc32Of(bytes: Uint8Array): number {
  let crc = 0xffffffff
  for (const byte of bytes) {
    crc ^= byte
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1
  }
  return (crc ^ 0xffffffff) >>> 0
}

describe('decodePCX on hand-written files', () => {
  it('decodes runs that cross row ends, and literal bytes below 0xC0', () => {
    // 3×2: a run of 4 × index 7 covers row 0 and the first pixel of row 1; then literals 0x10, 0xBF.
    const pcx = makePCX({ width: 3, height: 2, body: [0xc4, 7, 0x10, 0xbf], palette: TEST_PALETTE })
    expect(decodePCXIndexed(pcx).indices).toEqual(Uint8Array.from([7, 7, 7, 7, 0x10, 0xbf]))
    expect([...decodePCX(pcx).data]).toEqual(paletteRGBA([7, 7, 7, 7, 0x10, 0xbf]))
  })

  it('needs a run to write a value of 0xC0 or more, and treats a 0-length run as nothing', () => {
    const pcx = makePCX({ width: 2, height: 1, body: [0xc0, 9, 0xc1, 0xc0, 0xc1, 0xff], palette: TEST_PALETTE })
    expect([...decodePCXIndexed(pcx).indices]).toEqual([0xc0, 0xff])
  })

  it('drops the padding bytes past the width (bytesPerLine > width) and honours xmin/ymin', () => {
    // 3×2 with 4 bytes per line: the 4th byte of each row (0xEE) is padding.
    const pcx = makePCX({
      width: 3,
      height: 2,
      bytesPerLine: 4,
      xmin: 10,
      ymin: 20,
      body: [1, 2, 3, 0xc1, 0xee, 4, 5, 6, 0xc1, 0xee],
      palette: TEST_PALETTE,
    })
    const indexed = decodePCXIndexed(pcx)
    expect([indexed.width, indexed.height]).toEqual([3, 2])
    expect([...indexed.indices]).toEqual([1, 2, 3, 4, 5, 6])
  })

  it('makes transparentIndex fully transparent and keeps its colour', () => {
    const pcx = makePCX({ width: 4, height: 1, body: [0, 0xc1, 255, 0xc2, 255], palette: TEST_PALETTE })
    expect([...decodePCX(pcx, { transparentIndex: 255 }).data]).toEqual(paletteRGBA([0, 255, 255, 255], 255))
    expect([...decodePCX(pcx).data]).toEqual(paletteRGBA([0, 255, 255, 255]))
  })

  it('applies transparentIndex 255 on a real skin exactly where the index is 255', () => {
    // sydney/5thelem.pcx is the bundled skin that uses index 255 most: 844 pixels.
    const bytes = readAsset('quake2/sydney/5thelem.pcx')
    const { indices } = decodePCXIndexed(bytes)
    const image = decodePCX(bytes, { transparentIndex: 255 })
    const opaque = decodePCX(bytes)
    let transparentCount = 0
    for (let i = 0; i < indices.length; i++) {
      const alpha = image.data[i * 4 + 3]
      expect(alpha).toBe(indices[i] === 255 ? 0 : 255)
      if (alpha === 0) transparentCount++
    }
    expect(image.data.filter((_, k) => k % 4 !== 3)).toEqual(opaque.data.filter((_, k) => k % 4 !== 3))
    expect(transparentCount).toBe(844)
  })

  it('refuses a transparentIndex outside 0..255 as BAD_ARGUMENT', () => {
    const pcx = makePCX({ width: 1, height: 1, body: [0], palette: TEST_PALETTE })
    for (const bad of [256, -1, 1.5, Number.NaN]) {
      expect(() => decodePCX(pcx, { transparentIndex: bad })).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }))
    }
  })

  it('decodes uncompressed (encoding 0) files', () => {
    const pcx = makePCX({ width: 2, height: 2, encoding: 0, body: [0xc5, 0xff, 3, 4], palette: TEST_PALETTE })
    expect([...decodePCXIndexed(pcx).indices]).toEqual([0xc5, 0xff, 3, 4])
  })

  it('decodes 24-bit files: three planes per scanline (R, G, B), runs crossing planes and rows', () => {
    // 2×2, bytesPerLine 2. Row 0: R = 10 20, G = 30 40, B = 50 60. Row 1: R = 9 9, G = 9 1, B = 2 3.
    // The run "0xC3 9" covers R of row 1 and the first G byte of row 1.
    const body = [10, 20, 30, 40, 50, 0xc1, 60, 0xc3, 9, 1, 2, 3]
    const pcx = makePCX({ width: 2, height: 2, planes: 3, body })
    const image = decodePCX(pcx)
    expect([...image.data]).toEqual([10, 30, 50, 255, 20, 40, 60, 255, 9, 9, 2, 255, 9, 1, 3, 255])
    expect(() => decodePCXIndexed(pcx)).toThrow(/pcx header: 3 planes/)
  })

  it('decodes 24-bit files with padding bytes in each plane', () => {
    // 1×1 with bytesPerLine 2: R plane [200, pad], G plane [100, pad], B plane [50, pad].
    const pcx = makePCX({ width: 1, height: 1, planes: 3, bytesPerLine: 2, body: [0xc1, 200, 0, 100, 0, 50, 0] })
    expect([...decodePCX(pcx).data]).toEqual([200, 100, 50, 255])
  })

  it('ignores a palette appended to a 24-bit file', () => {
    const pcx = makePCX({ width: 1, height: 1, planes: 3, body: [1, 2, 3], palette: TEST_PALETTE })
    expect([...decodePCX(pcx).data]).toEqual([1, 2, 3, 255])
  })

  it('decodes 32-bit files: four planes, the fourth is alpha', () => {
    const pcx = makePCX({ width: 2, height: 1, planes: 4, body: [1, 2, 3, 4, 5, 6, 0, 0xc1, 200] })
    expect([...decodePCX(pcx).data]).toEqual([1, 3, 5, 0, 2, 4, 6, 200])
  })

  it('clips a last run that overshoots the image instead of refusing it', () => {
    const pcx = makePCX({ width: 2, height: 1, body: [0xc5, 4], palette: TEST_PALETTE })
    expect([...decodePCXIndexed(pcx).indices]).toEqual([4, 4])
  })
})

describe('decodePCX on damaged files', () => {
  const real = readAsset('quake2/ogro/darkam.pcx') // 256×256, 101,381 bytes, 0x0C marker
  const small = makePCX({ width: 2, height: 1, body: [1, 2], palette: TEST_PALETTE })

  function patched(bytes: Uint8Array, at: number, ...values: number[]): Uint8Array {
    const copy = bytes.slice()
    copy.set(values, at)
    return copy
  }

  it('truncated headers', () => {
    for (const length of [0, 1, 64, 127]) {
      const error = expectBadImage(() => decodePCX(real.subarray(0, length)), 'pcx header')
      expect(error.offset).toBe(0)
    }
  })

  it('wrong manufacturer byte', () => {
    const error = expectBadImage(() => decodePCX(patched(real, 0, 0x0b)), 'pcx header')
    expect(error.message).toContain('0x0b')
  })

  it('unknown version and encoding', () => {
    expect(expectBadImage(() => decodePCX(patched(small, 1, 6)), 'pcx header').offset).toBe(1)
    expect(expectBadImage(() => decodePCX(patched(small, 2, 2)), 'pcx header').offset).toBe(2)
    // Versions 0 to 5 are all accepted.
    for (const version of [0, 2, 3, 4]) expect(decodePCX(patched(small, 1, version)).width).toBe(2)
  })

  it('unsupported bits per pixel and plane counts', () => {
    expect(expectBadImage(() => decodePCX(patched(small, 3, 4)), 'pcx header').message).toContain('4 bits per pixel × 1 planes')
    expect(expectBadImage(() => decodePCX(patched(small, 3, 1)), 'pcx header').message).toContain('not supported')
    expect(expectBadImage(() => decodePCX(patched(small, 65, 2)), 'pcx header').message).toContain('8 bits per pixel × 2 planes')
  })

  it('xmax < xmin, ymax < ymin, and bytesPerLine smaller than the width', () => {
    expect(expectBadImage(() => decodePCX(patched(small, 4, 5, 0)), 'pcx header').offset).toBe(8)
    expect(expectBadImage(() => decodePCX(patched(small, 6, 5, 0)), 'pcx header').offset).toBe(10)
    expect(expectBadImage(() => decodePCX(patched(small, 66, 1, 0)), 'pcx header').offset).toBe(66)
  })

  it('an image past maxPixels (8,192² by default) is refused from its header, even when its bytes could hold it', () => {
    // 16,384 × 16,384 in runs of 63: 8.5 MB of RLE that would decode to 256 MiB of indices and 1 GiB of RGBA.
    const side = 16384
    const runs = Math.ceil((side * side) / 63)
    const body = new Uint8Array(runs * 2)
    for (let i = 0; i < body.length; i += 2) body[i] = 0xff
    const file = new Uint8Array(128 + body.length + 769)
    file.set(makePCX({ width: side, height: 1, body: [], palette: TEST_PALETTE }).subarray(0, 128))
    file.set([0xff, 0x3f], 10) // ymax = 16383
    file.set(body, 128)
    file[128 + body.length] = 0x0c
    const before = process.memoryUsage().arrayBuffers
    const error = expectBadImage(() => decodePCX(file), 'pcx header')
    expect(error.message).toContain('16384 × 16384 pixels is more than the limit of 67108864')
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(16 * 1024 * 1024)
    // A caller may lower the cap.
    const skin = readAsset('quake2/ogro/igdosh.pcx')
    expect(expectBadImage(() => decodePCX(skin, { maxPixels: 1000 }), 'pcx header').message).toContain('more than the limit of 1000')
  })

  it('absurd sizes are refused from the header, before anything is allocated', () => {
    // Without the pixel cap: what the bytes could hold decides.
    const NO_CAP = { maxPixels: Infinity }
    const before = process.memoryUsage().arrayBuffers
    // 65535×65535, 200-byte file: too short even for the palette of an 8-bit image.
    const tiny = patched(makePCX({ width: 1, height: 1, body: new Array<number>(72).fill(0) }), 8, 0xfe, 0xff, 0xfe, 0xff)
    tiny.set([0xff, 0xff], 66)
    expect(tiny.length).toBe(200)
    expectBadImage(() => decodePCX(tiny, NO_CAP), 'pcx palette')
    // The same as a 24-bit image (no palette): the header check refuses it.
    const tinyRGB = tiny.slice()
    tinyRGB[65] = 3
    expect(expectBadImage(() => decodePCX(tinyRGB, NO_CAP), 'pcx header').message).toContain('65535×65535×3')
    // 65535×65535 8-bit with a palette and 1,000 bytes of runs: at most 31,500 pixels could come out.
    const runs = patched(
      makePCX({ width: 1, height: 1, body: new Array<number>(1000).fill(0xff), palette: TEST_PALETTE }),
      8,
      0xfe,
      0xff,
      0xfe,
      0xff,
    )
    runs.set([0xff, 0xff], 66)
    expect(expectBadImage(() => decodePCX(runs, NO_CAP), 'pcx header').message).toContain('cannot come from 1001 bytes')
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(16 * 1024 * 1024)
  })

  it('the largest image a file can describe is accepted: 63 pixels per 2-byte run', () => {
    // 126 pixels from two runs of 63: exactly at the bound, so decoded, not refused.
    const pcx = makePCX({ width: 126, height: 1, body: [0xff, 1, 0xff, 2], palette: TEST_PALETTE, marker: false })
    const { indices } = decodePCXIndexed(pcx)
    expect(indices.filter((i) => i === 1).length).toBe(63)
    expect(indices.filter((i) => i === 2).length).toBe(63)
    // One more pixel than 4 bytes can hold.
    const over = makePCX({ width: 127, height: 1, body: [0xff, 1, 0xff, 2], palette: TEST_PALETTE, marker: false })
    expectBadImage(() => decodePCX(over), 'pcx header')
  })

  it('truncated pixel data is refused, not padded (all 175 real files are complete)', () => {
    // Cutting a real skin anywhere inside its pixel data leaves the RLE short of the image.
    for (const keep of [0.25, 0.5, 0.9]) {
      const cut = real.subarray(0, Math.floor(real.length * keep))
      const error = expectBadImage(() => decodePCX(cut), 'pcx rle')
      expect(error.message).toMatch(/pixel data ends after \d+ of 65536 bytes|run count byte has no value byte/)
    }
    // Raw (encoding 0) files are refused by the size check. (With one byte missing, the 0x0C marker
    // would be taken as the last pixel, as in a marker-less file.)
    const raw = makePCX({ width: 2, height: 2, encoding: 0, body: [1, 2], palette: TEST_PALETTE })
    expectBadImage(() => decodePCX(raw), 'pcx header')
  })

  it('a run count byte with no value byte after it', () => {
    // 12 stream bytes: a run of 5, then a count byte at 130 that is the file's last byte.
    const pcx = makePCX({ width: 4, height: 1, planes: 3, body: [0xc5, 1, 0xc2] })
    const error = expectBadImage(() => decodePCX(pcx), 'pcx rle')
    expect(error.offset).toBe(130)
    expect(error.message).toContain('no value byte')
  })

  it('pixel data may not run into the 768-byte palette', () => {
    // 4 pixels but only 2 stream bytes: the 0x0C marker is read as a third pixel (it could be one,
    // in a marker-less file), then the decoder stops where the palette starts, at 131.
    const pcx = makePCX({ width: 4, height: 1, body: [1, 2], palette: TEST_PALETTE })
    expect(expectBadImage(() => decodePCX(pcx), 'pcx rle').offset).toBe(131)
  })

  it('a file too short for a palette', () => {
    const pcx = makePCX({ width: 2, height: 1, body: [1, 2] })
    expectBadImage(() => decodePCX(pcx), 'pcx palette')
    expectBadImage(() => decodePCX(real.subarray(0, 800)), 'pcx palette')
  })

  it('a file that lost only its last byte decodes with a shifted palette (the marker-less case)', () => {
    // Documented limit of accepting palettes without a marker: the pixel data still fits, and the
    // 768 bytes after it start with the old marker. Losing 2 or more bytes is refused.
    const shifted = decodePCXIndexed(real.subarray(0, real.length - 1))
    expect(shifted.palette[0]).toBe(0x0c)
    expect(shifted.palette.subarray(1)).toEqual(real.subarray(-768, -1))
    expectBadImage(() => decodePCX(real.subarray(0, real.length - 2)), 'pcx rle')
  })

  it('not a byte array: BAD_ARGUMENT', () => {
    expect(() => decodePCX('hello' as unknown as Uint8Array)).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }))
  })
})

describe('decodePCX fuzzing (seeded)', () => {
  const SEED = 20240611
  const sources: Record<string, Uint8Array> = {
    'ogro/g_grenade.pcx': readAsset('quake2/ogro/g_grenade.pcx'),
    'ogro/g_shotgun.pcx': readAsset('quake2/ogro/g_shotgun.pcx'),
    'pknight/w_shotgun.pcx': readAsset('quake2/pknight/w_shotgun.pcx'),
    'ratamahatta/Gearwhore.pcx': readAsset('quake2/ratamahatta/Gearwhore.pcx'),
    'synthetic 24-bit': makePCX({
      width: 5,
      height: 3,
      planes: 3,
      bytesPerLine: 6,
      body: [0xd2, 7, ...Array.from({ length: 36 }, (_, i) => i)],
    }),
  }

  it('returns a well-formed image or throws MD2Error BAD_IMAGE, for 400 damaged files', () => {
    fuzzImageDecoder('PCX', sources, { headerSize: 128, maxEdits: 12, seed: SEED }, (bytes) => decodePCX(bytes, { transparentIndex: 255 }))
  })
})

describe('sniffImageType', () => {
  it('recognises PCX, PNG and JPEG assets, and not MD2 files', () => {
    expect(sniffImageType(readAsset('quake2/sydney/JACKET.PCX'))).toBe('pcx')
    expect(listAssets('png').every((path) => sniffImageType(readAsset(path)) === 'png')).toBe(true)
    expect(listAssets('jpg').every((path) => sniffImageType(readAsset(path)) === 'jpeg')).toBe(true)
    expect(sniffImageType(readAsset('quake2/ogro/tris.MD2'))).toBeUndefined()
    expect(sniffImageType(new Uint8Array(0))).toBeUndefined()
  })
})
