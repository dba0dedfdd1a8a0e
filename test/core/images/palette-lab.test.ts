/**
 * Palette mapping by what the eye sees: `quantizeToPalette` picks the CIEDE2000-nearest entry in CIELAB,
 * measured against the weighted-RGB distance it used before on a real true-colour skin, and its opt-in
 * Floyd–Steinberg dither against plain mapping on gradients.
 */
import { describe, expect, it } from 'vitest'
import { deltaE2000, deltaE76, linearToSrgb8, SRGB_TO_LINEAR, srgb8ToLab } from '../../../src/core/images/colorLab'
import type { DecodedImage } from '../../../src/core/images/decodedImage'
import { decodePNG } from '../../../src/core/images/decodePNG'
import { encodePCX, quantizeToPalette } from '../../../src/core/images/encodePCX'
import { QUAKE2_PALETTE } from '../../../src/core/images/quake2Palette'
import { resampleImage } from '../../../src/core/images/resampleImage'
import { readAsset } from '../../support/assets'
import { expectMD2Error } from '../../support/errors'

const lab = (r: number, g: number, b: number): [number, number, number] => {
  const out = new Float64Array(3)
  srgb8ToLab(r, g, b, out)
  return [out[0]!, out[1]!, out[2]!]
}
const entry = (p: number): [number, number, number] => [QUAKE2_PALETTE[p * 3]!, QUAKE2_PALETTE[p * 3 + 1]!, QUAKE2_PALETTE[p * 3 + 2]!]
const hue = ([, a, b]: number[]) => (Math.atan2(b!, a!) * 180) / Math.PI
const de00 = (x: number[], y: number[]) => deltaE2000(x[0]!, x[1]!, x[2]!, y[0]!, y[1]!, y[2]!)
const de76 = (x: number[], y: number[]) => deltaE76(x[0]!, x[1]!, x[2]!, y[0]!, y[1]!, y[2]!)

/** The mapping `quantizeToPalette` made before: squared RGB distance weighted 3:4:2, first of equals. */
function oldNearest(r: number, g: number, b: number, skip = 255): number {
  let best = 0
  let bestDistance = Infinity
  for (let p = 0; p < 256; p++) {
    if (p === skip) continue
    const [pr, pg, pb] = entry(p)
    const distance = 3 * (pr - r) ** 2 + 4 * (pg - g) ** 2 + 2 * (pb - b) ** 2
    if (distance < bestDistance) {
      bestDistance = distance
      best = p
    }
  }
  return best
}

/** An RGBA image from a function of (x, y). */
function image(width: number, height: number, pixel: (x: number, y: number) => number[]): DecodedImage {
  const data = new Uint8Array(width * height * 4)
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(pixel(x, y), (y * width + x) * 4)
  return { width, height, data }
}

describe('colorLab', () => {
  it('CIELAB of sRGB white and black, and CIEDE2000 on Sharma, Wu and Dalal’s test pairs', () => {
    const white = lab(255, 255, 255)
    expect(white[0]).toBeCloseTo(100, 3)
    expect(Math.abs(white[1]) + Math.abs(white[2])).toBeLessThan(0.01)
    expect(lab(0, 0, 0)).toEqual([0, 0, 0])
    const pairs: [number[], number[], number][] = [
      [[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425],
      [[50, 0, 0], [50, -1, 2], 2.3669],
      [[50, 2.5, 0], [73, 25, -18], 27.1492],
      [[60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644],
      // More of the pairs, across hues (T and the rotation term): the distance is computed with fewer calls now.
      [[50, 3.1571, -77.2803], [50, 0, -82.7485], 2.8615],
      [[50, 2.8361, -74.02], [50, 0, -82.7485], 3.4412],
      [[50, 2.5, 0], [61, -5, 29], 22.8977],
      [[50, 2.5, 0], [56, -27, -3], 31.903],
      [[50, 2.5, 0], [58, 24, 15], 19.4535],
      [[50, 2.5, 0], [50, 3.1736, 0.5854], 1],
      [[63.0109, -31.0961, -5.8663], [62.8187, -29.7946, -4.0864], 1.263],
      [[22.7233, 20.0904, -46.694], [23.0331, 14.973, -42.5619], 2.0373],
    ]
    for (const [x, y, expected] of pairs) {
      expect(de00(x, y)).toBeCloseTo(expected, 4)
      expect(de00(y, x)).toBeCloseTo(expected, 4)
    }
    for (let v = 0; v < 256; v++) expect(linearToSrgb8(SRGB_TO_LINEAR[v]!)).toBe(v)
  })
})

describe('quantizeToPalette by CIEDE2000', () => {
  it('maps the soldier’s tan (150,109,81) to the perceptually nearest entry, of the same hue', () => {
    const source = lab(150, 109, 81)
    const [chosen] = quantizeToPalette(image(1, 1, () => [150, 109, 81, 255]))
    const colour = lab(...entry(chosen!))
    // No entry (but transparent 255) is nearer to the eye.
    for (let p = 0; p < 255; p++) expect(de00(source, colour)).toBeLessThanOrEqual(de00(source, lab(...entry(p))) + 1e-9)
    // That nearest entry is (135,107,87), the one the issue names as pink: by CIEDE2000 and plain Lab alike it
    // is the tan's own hue, a little greyer. The old weighted RGB took a yellower (143,119,83).
    expect(entry(chosen!)).toEqual([135, 107, 87])
    const old = entry(oldNearest(150, 109, 81))
    expect(old).toEqual([143, 119, 83])
    expect(de00(source, colour)).toBeLessThan(de00(source, lab(...old)))
    expect(de76(source, colour)).toBeLessThan(de76(source, lab(...old)))
    // Not pink: its hue (a*, b* direction) is the tan's, within 5°.
    expect(Math.abs(hue(colour) - hue(source))).toBeLessThan(5)
    console.log(
      `(150,109,81): hue ${hue(source).toFixed(1)}° → ${JSON.stringify(entry(chosen!))} hue ${hue(colour).toFixed(1)}° ΔE00 ${de00(source, colour).toFixed(2)}` +
        ` (old ${JSON.stringify(old)} hue ${hue(lab(...old)).toFixed(1)}° ΔE00 ${de00(source, lab(...old)).toFixed(2)})`,
    )
  })

  it('maps a real true-colour skin (UFO:AI soldier head, 256 × 256) nearer, to the eye, than weighted RGB', () => {
    const head = resampleImage(decodePNG(readAsset('ufoai/soldier-male/head01a.png')), 256, 256)
    const indices = quantizeToPalette(head)
    const sums = { new00: 0, old00: 0, new76: 0, old76: 0 }
    let count = 0
    const { data } = head
    for (let i = 0; i < indices.length; i++) {
      if (data[i * 4 + 3]! < 128) {
        expect(indices[i]).toBe(255)
        continue
      }
      const source = lab(data[i * 4]!, data[i * 4 + 1]!, data[i * 4 + 2]!)
      const now = lab(...entry(indices[i]!))
      const before = lab(...entry(oldNearest(data[i * 4]!, data[i * 4 + 1]!, data[i * 4 + 2]!)))
      sums.new00 += de00(source, now)
      sums.old00 += de00(source, before)
      sums.new76 += de76(source, now)
      sums.old76 += de76(source, before)
      count++
    }
    expect(count).toBeGreaterThan(10000)
    const mean = (sum: number) => sum / count
    expect(mean(sums.new00)).toBeLessThanOrEqual(mean(sums.old00))
    // Also by plain Lab distance, which the new mapping does not minimise itself.
    expect(mean(sums.new76)).toBeLessThanOrEqual(mean(sums.old76))
    console.log(
      `head01a.png at 256 × 256, ${count} opaque pixels: mean ΔE00 ${mean(sums.old00).toFixed(3)} (weighted RGB) → ${mean(sums.new00).toFixed(3)} (CIEDE2000);` +
        ` mean ΔE76 ${mean(sums.old76).toFixed(3)} → ${mean(sums.new76).toFixed(3)}`,
    )
  })

  it('keeps a flat colour flat without dither, and a palette colour flat with it', () => {
    const flat = image(16, 8, () => [150, 109, 81, 255])
    expect(new Set(quantizeToPalette(flat)).size).toBe(1)
    expect(new Set(quantizeToPalette(flat, { dither: false })).size).toBe(1)
    const paletteColour = image(16, 8, () => [...entry(48), 255])
    expect(new Set(quantizeToPalette(paletteColour, { dither: true }))).toEqual(new Set([48]))
  })

  it('re-measures a palette changed in place, and never maps an opaque pixel to transparentIndex', () => {
    const palette = QUAKE2_PALETTE.slice()
    const red = image(2, 1, () => [255, 0, 0, 255])
    expect(quantizeToPalette(red, { palette })[0]).not.toBe(7)
    palette.set([255, 0, 0], 7 * 3)
    expect(quantizeToPalette(red, { palette })[0]).toBe(7)
    expect(quantizeToPalette(red, { palette, transparentIndex: 7 })[0]).not.toBe(7)
    expect(
      quantizeToPalette(
        image(1, 1, () => [9, 9, 9, 0]),
        { transparentIndex: 0 },
      )[0],
    ).toBe(0)
  })
})

describe('quantizeToPalette with dither', () => {
  /** Mean ΔE00 between 8 × 8 block means (in linear light, what the eye averages) of source and result. */
  function blockError(source: DecodedImage, indices: Uint8Array): number {
    let total = 0
    let blocks = 0
    for (let by = 0; by < source.height; by += 8)
      for (let bx = 0; bx < source.width; bx += 8) {
        const want = [0, 0, 0]
        const got = [0, 0, 0]
        for (let y = by; y < by + 8; y++)
          for (let x = bx; x < bx + 8; x++) {
            const i = y * source.width + x
            for (let c = 0; c < 3; c++) {
              want[c]! += SRGB_TO_LINEAR[source.data[i * 4 + c]!]! / 64
              got[c]! += SRGB_TO_LINEAR[QUAKE2_PALETTE[indices[i]! * 3 + c]!]! / 64
            }
          }
        const toLab = (rgb: number[]) => lab(...(rgb.map(linearToSrgb8) as [number, number, number]))
        total += de00(toLab(want), toLab(got))
        blocks++
      }
    return total / blocks
  }

  it('keeps smooth gradients nearer their source over 8 × 8 blocks than plain mapping', () => {
    const gradients = {
      skin: image(128, 64, (x, y) => [150 + (x * 80) / 127, 109 + (x * 81) / 127, 81 + (y * 79) / 63, 255].map(Math.round)),
      grey: image(128, 64, (x) => [Math.round((x * 255) / 127), Math.round((x * 255) / 127), Math.round((x * 255) / 127), 255]),
      // Outside what Quake II's palette mixes to: the error passed on is capped.
      sky: image(128, 64, (x, y) => [40 + x, 80 + y, 200 + Math.round(x / 3), 255]),
    }
    const figures: string[] = []
    for (const [name, gradient] of Object.entries(gradients)) {
      const plain = blockError(gradient, quantizeToPalette(gradient))
      const dithered = blockError(gradient, quantizeToPalette(gradient, { dither: true }))
      expect(dithered).toBeLessThan(plain)
      figures.push(`${name} ${plain.toFixed(3)} → ${dithered.toFixed(3)}`)
    }
    console.log(`8 × 8 block-mean ΔE00, plain → dithered: ${figures.join(', ')}`)
  })

  it('gives transparent pixels transparentIndex, and they neither receive nor pass error', () => {
    // Left half transparent with noise for colour, right half an opaque gradient.
    const width = 64
    const height = 32
    let seed = 1
    const noise = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 256
    const half = image(width / 2, height, (x, y) => [100 + x * 4, 60 + y * 3, 50 + x * 2, 255])
    const both = image(width, height, (x, y) => {
      if (x < width / 2) return [noise(), noise(), noise(), noise() & 127]
      const i = (y * (width / 2) + x - width / 2) * 4
      return [...half.data.subarray(i, i + 4)]
    })
    for (const transparentIndex of [255, 0]) {
      const alone = quantizeToPalette(half, { dither: true, transparentIndex })
      const indices = quantizeToPalette(both, { dither: true, transparentIndex })
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++) {
          const got = indices[y * width + x]
          if (x < width / 2) expect(got).toBe(transparentIndex)
          else expect(got).toBe(alone[y * (width / 2) + x - width / 2])
        }
      expect(alone.includes(transparentIndex)).toBe(false)
    }
    // Through encodePCX too.
    expect(encodePCX(both, { dither: true }).length).toBeGreaterThan(128 + 768)
  })

  it('refuses a dither that is not a boolean as BAD_ARGUMENT', () => {
    const one = image(1, 1, () => [0, 0, 0, 255])
    for (const bad of ['yes', 1, null])
      expectMD2Error(() => quantizeToPalette(one, { dither: bad as unknown as boolean }), 'BAD_ARGUMENT', { text: /dither/ })
    expectMD2Error(() => encodePCX(one, { dither: 'yes' as unknown as boolean }), 'BAD_ARGUMENT', { text: /dither must be true or false/ })
  })
})
