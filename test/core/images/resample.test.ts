import { describe, expect, it } from 'vitest'
import { engineSkinSize, QUAKE2_SKIN_LIMITS, skinSizeProblems } from '../../../src/core/images/engineSkin'
import { resampleImage } from '../../../src/core/images/resampleImage'
import { expectMD2Error } from '../../support/errors'

/** An RGBA image from a function of (x, y). */
function image(width: number, height: number, pixel: (x: number, y: number) => number[]) {
  const data = new Uint8Array(width * height * 4)
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(pixel(x, y), (y * width + x) * 4)
  return { width, height, data }
}
const at = (img: { width: number; data: Uint8Array }, x: number, y: number) =>
  Array.from(img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4))

describe('resampleImage', () => {
  it('shrinking averages the area each new pixel covers', () => {
    const blocks = image(4, 4, (x, y) => (x < 2 === y < 2 ? [200, 100, 0, 255] : [0, 100, 200, 255]))
    const half = resampleImage(blocks, 2, 2)
    expect([at(half, 0, 0), at(half, 1, 0), at(half, 0, 1), at(half, 1, 1)]).toEqual([
      [200, 100, 0, 255],
      [0, 100, 200, 255],
      [0, 100, 200, 255],
      [200, 100, 0, 255],
    ])
    // A checkerboard of black and white is grey, not one of its pixels (no aliasing).
    const checker = image(8, 8, (x, y) => ((x + y) % 2 ? [255, 255, 255, 255] : [0, 0, 0, 255]))
    for (const value of resampleImage(checker, 2, 2).data.filter((_, i) => i % 4 === 0)) expect(value).toBe(128)
    // 3 → 2: the first pixel covers source 0 and half of 1: weights 2/3 and 1/3.
    const row = resampleImage(
      image(3, 1, (x) => [x * 90, 0, 0, 255]),
      2,
      1,
    )
    expect(at(row, 0, 0)[0]).toBe(30)
    expect(at(row, 1, 0)[0]).toBe(150)
  })

  it('weights colour by alpha: a transparent pixel does not darken its neighbours', () => {
    const edge = image(2, 1, (x) => (x === 0 ? [0, 0, 255, 255] : [255, 0, 0, 0]))
    expect(at(resampleImage(edge, 1, 1), 0, 0)).toEqual([0, 0, 255, 128])
  })

  it('a uniform image stays uniform at any size; its mean is kept', () => {
    const flat = image(1024, 1024, () => [12, 34, 56, 255])
    const fitted = resampleImage(flat, 362, 362)
    expect(new Set(fitted.data.filter((_, i) => i % 4 === 1))).toEqual(new Set([34]))
    const ramp = image(1000, 10, (x) => [Math.floor(x / 4), 0, 0, 255])
    const small = resampleImage(ramp, 37, 3)
    const mean = (img: { data: Uint8Array }) => img.data.filter((_, i) => i % 4 === 0).reduce((a, b) => a + b, 0) / (img.data.length / 4)
    expect(Math.abs(mean(small) - mean(ramp))).toBeLessThan(0.5)
  })

  it('enlarging interpolates between pixel centres', () => {
    const two = resampleImage(
      image(2, 1, (x) => [x * 200, 0, 0, 255]),
      4,
      1,
    )
    expect(Array.from(two.data.filter((_, i) => i % 4 === 0))).toEqual([0, 50, 150, 200])
  })

  it('refuses sizes that are not sizes and data of the wrong length', () => {
    const one = image(2, 2, () => [0, 0, 0, 255])
    expectMD2Error(() => resampleImage(one, 0, 3), 'BAD_ARGUMENT', { text: /resampleImage: 0 × 3 is not a size/ })
    expectMD2Error(() => resampleImage(one, 1.5, 3), 'BAD_ARGUMENT')
    expectMD2Error(() => resampleImage({ width: 3, height: 3, data: one.data }, 1, 1), 'BAD_ARGUMENT', { text: /needs 36 bytes, got 16/ })
  })
})

describe('engineSkinSize and skinSizeProblems (Quake II ref_gl)', () => {
  it('each side a power of two up to 256 (what GL_Upload32 draws as written), rounded up so that no texel is lost below 256', () => {
    expect(engineSkinSize(1024, 1024)).toEqual([256, 256])
    expect(engineSkinSize(2048, 512)).toEqual([256, 256])
    expect(engineSkinSize(14, 24)).toEqual([16, 32])
    expect(engineSkinSize(22, 32)).toEqual([32, 32])
    expect(engineSkinSize(64, 32)).toEqual([64, 32])
    expect(engineSkinSize(1, 1)).toEqual([1, 1])
    for (const [w, h] of [
      [4096, 4096],
      [4096, 17],
      [1, 4096],
      [777, 555],
      [55, 129],
    ] as const) {
      const [fw, fh] = engineSkinSize(w, h)
      expect(fw * fh).toBeLessThanOrEqual(QUAKE2_SKIN_LIMITS.maxTexels)
      expect(skinSizeProblems(fw, fh, 'pcx')).toEqual([])
      expect(skinSizeProblems(fw, fh, 'tga')).toEqual([])
      expect(fw).toBeGreaterThanOrEqual(Math.min(w, 256))
      expect(fh).toBeGreaterThanOrEqual(Math.min(h, 256))
    }
  })

  it('names each limit a size passes', () => {
    expect(skinSizeProblems(256, 128, 'pcx')).toEqual([])
    expect(skinSizeProblems(362, 362, 'pcx')).toEqual([
      'drawn from 256 × 256 (GL_Upload32 rounds each side down to a power of two, at most 256)',
    ])
    expect(skinSizeProblems(14, 24, 'tga')).toEqual([
      'drawn from 8 × 16 (GL_Upload32 rounds each side down to a power of two, at most 256)',
    ])
    expect(skinSizeProblems(256, 481, 'tga')).toEqual(['taller than 480 (Mod_LoadAliasModel: "has a skin taller than 480")'])
    expect(skinSizeProblems(513, 256, 'pcx')).toEqual([
      '131328 texels, over the 131072 (512 × 256) an 8-bit skin may have (GL_Upload8: "too large")',
    ])
    expect(skinSizeProblems(641, 100, 'pcx')).toEqual(['a PCX larger than 640 × 480 (LoadPCX: "Bad pcx file")'])
    expect(skinSizeProblems(64, 64, 'png')).toEqual(['a PNG skin, which Quake II does not load (GL_FindImage reads .pcx and .tga)'])
  })
})
