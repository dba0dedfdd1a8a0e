/**
 * The exact nearest-entry search `quantizeToPalette` makes for images of many colours (noise, photos):
 * by cells of sRGB colours, each with the few entries `deltaE2000BoxBound` allows. Its answers must be the
 * CIEDE2000-nearest entry, lowest index of equals, never the transparent index: checked here against the
 * whole palette measured colour by colour, and the box bound against CIEDE2000 itself inside boxes.
 */
import { describe, expect, it } from 'vitest'
import { deltaE2000, deltaE2000BoxBound, srgb8ToLab } from '../../../src/core/images/colorLab'
import { quantizeToPalette } from '../../../src/core/images/encodePCX'
import { QUAKE2_PALETTE } from '../../../src/core/images/quake2Palette'

function xorshift(seed: number): () => number {
  let s = seed
  return () => {
    s ^= s << 13
    s ^= s >>> 17
    s ^= s << 5
    return s >>> 0
  }
}

/** The CIEDE2000-nearest entry over the whole palette, lowest index of equals, `skip` left out. */
function nearestByEveryEntry(palette: Uint8Array, labs: Float64Array, r: number, g: number, b: number, skip: number | null): number {
  const source = new Float64Array(3)
  srgb8ToLab(r, g, b, source)
  let best = -1
  let bestDistance = Infinity
  for (let p = 0; p < 256; p++) {
    if (p === skip) continue
    const distance = deltaE2000(source[0]!, source[1]!, source[2]!, labs[p * 3]!, labs[p * 3 + 1]!, labs[p * 3 + 2]!)
    if (distance < bestDistance) {
      bestDistance = distance
      best = p
    }
  }
  return best
}

function paletteLabs(palette: Uint8Array): Float64Array {
  const labs = new Float64Array(768)
  for (let p = 0; p < 256; p++) srgb8ToLab(palette[p * 3]!, palette[p * 3 + 1]!, palette[p * 3 + 2]!, labs, p * 3)
  return labs
}

describe('quantizeToPalette on images of many colours', () => {
  const random = xorshift(0x9e3779b9)
  const randomPalette = Uint8Array.from({ length: 768 }, () => random() & 255)
  // Each of 64 colours four times over (and so equals at every distance: the lowest index must win).
  const repeated = Uint8Array.from({ length: 768 }, (_, i) => randomPalette[i % 192]!)
  const cases: [string, Uint8Array, number | null][] = [
    ["Quake II's palette, 255 transparent", QUAKE2_PALETTE, 255],
    ['a random palette, every entry used', randomPalette, null],
    ['a palette of repeated entries, 3 transparent', repeated, 3],
  ]
  for (const [name, palette, transparentIndex] of cases) {
    it(`maps 160,000 random pixels to the CIEDE2000-nearest entries: ${name}`, () => {
      const next = xorshift(palette[0]! * 65536 + 12345)
      const width = 400
      const height = 400
      // Random colours in 3,000 random 8 × 8 × 8 cells (about 50 a cell, as in noise): each cell's list of
      // entries is made once, so few cells keep the test short; which cells differs from palette to palette.
      const cells = Array.from({ length: 3000 }, () => next() & 0x7fff)
      const data = new Uint8Array(width * height * 4)
      for (let i = 0; i < width * height; i++) {
        const cell = cells[next() % cells.length]!
        const offsets = next()
        data.set(
          [
            ((cell >> 10) << 3) | (offsets & 7),
            (((cell >> 5) & 31) << 3) | ((offsets >> 3) & 7),
            ((cell & 31) << 3) | ((offsets >> 6) & 7),
            255,
          ],
          i * 4,
        )
      }
      const indices = quantizeToPalette({ width, height, data }, { palette, transparentIndex })
      const labs = paletteLabs(palette)
      // The first few thousand colours are searched one by one; past them, by cells: check a spread of both.
      let checked = 0
      for (let i = 7; i < indices.length; i += 20) {
        const want = nearestByEveryEntry(palette, labs, data[i * 4]!, data[i * 4 + 1]!, data[i * 4 + 2]!, transparentIndex)
        if (indices[i] !== want) expect(`pixel ${i}: ${indices[i]}`).toBe(`pixel ${i}: ${want}`)
        checked++
      }
      expect(checked).toBe(8000)
      if (transparentIndex !== null) expect(indices.includes(transparentIndex)).toBe(false)
    })
  }
})

describe('deltaE2000BoxBound', () => {
  it('is at most CIEDE2000 between any colour of the box and the entry', () => {
    const next = xorshift(2024)
    const uniform = (low: number, high: number) => low + ((next() % 1_000_000) / 1_000_000) * (high - low)
    let tight = 0
    for (let trial = 0; trial < 3000; trial++) {
      // Boxes from a few tenths to tens of units, anywhere in Lab, some around the neutral axis.
      const size = uniform(0.2, trial % 3 === 0 ? 30 : 6)
      const l = uniform(0, 100 - size)
      const a = trial % 7 === 0 ? uniform(-size, 0) : uniform(-90, 90)
      const b = trial % 7 === 0 ? uniform(-size, 0) : uniform(-100, 90)
      const [l2, a2, b2] = [uniform(0, 100), uniform(-90, 90), uniform(-100, 100)]
      const bound = deltaE2000BoxBound(l, l + size, a, a + size, b, b + size * 1.5, l2, a2, b2, Math.hypot(a2, b2))
      let least = Infinity
      for (let k = 0; k < 200; k++) {
        // Corners and faces too: the least is often on the box's edge.
        const pick = (low: number, high: number) => (k % 4 === 0 ? (next() & 1 ? low : high) : uniform(low, high))
        least = Math.min(least, deltaE2000(pick(l, l + size), pick(a, a + size), pick(b, b + size * 1.5), l2, a2, b2))
      }
      expect(bound).toBeLessThanOrEqual(least * (1 + 1e-12))
      if (bound > least * 0.5) tight++
    }
    // A bound of 0 would pass the check above; this one is within half of the sampled least mostly.
    expect(tight).toBeGreaterThan(2000)
  })
})
