import { describe, expect, it } from 'vitest'
import { decodePCX, decodePCXIndexed } from '../../../src/core/images/pcx'
import { readAsset } from '../../support/assets'
import { makePCX } from '../../support/pcx'
import { TEST_PALETTE, paletteRGBA } from '../../support/pcx-test-palette'

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
