import { createHash } from 'node:crypto'
import { deflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { readAsset } from '../../support/assets'
import { readPNG } from '../../support/png-reference'

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
