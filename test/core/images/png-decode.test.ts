import { describe, expect, it } from 'vitest'
import { decodePNG } from '../../../src/core/images/decodePNG'
import { expectMD2Error } from '../../support/errors'
import { rawPNG } from '../../support/gltfFiles'

describe('decodePNG', () => {
  it('checks the size from IHDR before decoding: a 12000 × 12000 image is refused with the budget named', () => {
    const row = new Uint8Array(1500)
    const bomb = rawPNG({ width: 12000, height: 12000, colourType: 0, depth: 1, row: () => row })
    expectMD2Error(() => decodePNG(bomb, { name: 'bomb.png', maxPixels: 4096 * 4096 }), 'BAD_IMAGE', {
      section: 'png',
      text: /12000 × 12000 pixels is more than the limit of 16777216/,
    })
  })

  it('16-bit grey with a tRNS key: the key colour transparent, samples to 8 bits', () => {
    const png = rawPNG({
      width: 3,
      height: 1,
      colourType: 0,
      depth: 16,
      trns: new Uint8Array([0x12, 0x34]),
      row: () => new Uint8Array([0xff, 0xff, 0x12, 0x34, 0x80, 0x01]),
    })
    expect(Array.from(decodePNG(png).data)).toEqual([255, 255, 255, 255, 0x12, 0x12, 0x12, 0, 0x80, 0x80, 0x80, 255])
  })

  it('a file that is not a PNG, or one cut short, is BAD_IMAGE', () => {
    expectMD2Error(() => decodePNG(new TextEncoder().encode('not a png at all, just some text here')), 'BAD_IMAGE', {
      text: /not a PNG image/,
    })
    const png = rawPNG({ width: 8, height: 8, colourType: 2, depth: 8, row: () => new Uint8Array(24).fill(7) })
    expectMD2Error(() => decodePNG(png.subarray(0, 40)), 'BAD_IMAGE', { section: 'png' })
  })
})

describe('decodePNG against deflate bombs', () => {
  it('image data inflating past what the header needs is refused before the decoder inflates it', () => {
    // 64 × 64 RGBA needs 16,448 bytes of rows; this IDAT holds 20 MB of zeros in about 20 kB.
    const png = rawPNG({ width: 64, height: 64, colourType: 6, depth: 8, row: (y) => new Uint8Array(y === 0 ? 20_000_000 : 256) })
    expect(png.length).toBeLessThan(100_000)
    expectMD2Error(() => decodePNG(png), 'BAD_IMAGE', { section: 'png', text: /inflates past the 16448 bytes 64 × 64 needs/ })
  })
})
