/**
 * The skin writers against the decoders, on real Quake II skins: a PCX in Quake II's palette decodes back
 * to the same pixels, a TGA to the same RGBA; the palette table is the one Quake II's own skins carry.
 */
import { describe, expect, it } from 'vitest'
import { encodePCX, quantizeToPalette } from '../../../src/core/images/encodePCX'
import { encodeTGA } from '../../../src/core/images/encodeTGA'
import { decodePCX, decodePCXIndexed } from '../../../src/core/images/pcx'
import { QUAKE2_PALETTE } from '../../../src/core/images/quake2Palette'
import { decodeTGA } from '../../../src/core/images/tga'
import { readAsset } from '../../support/assets'

describe('QUAKE2_PALETTE', () => {
  it.each(['quake2/pknight/evil.pcx', 'quake2/faerie/pamila.pcx', 'quake2/ogro/sharokh.pcx'])('is the palette %s carries', (file) => {
    expect(Buffer.compare(Buffer.from(decodePCXIndexed(readAsset(file)).palette), Buffer.from(QUAKE2_PALETTE))).toBe(0)
  })
})

describe('encodePCX', () => {
  it('writes a Quake II skin back index for index (its colours are palette entries; 255 stays transparent)', () => {
    const original = decodePCXIndexed(readAsset('quake2/pknight/evil.pcx'))
    const rgba = decodePCX(readAsset('quake2/pknight/evil.pcx'), { transparentIndex: 255 })
    const written = decodePCXIndexed(encodePCX(rgba))
    expect([written.width, written.height]).toEqual([original.width, original.height])
    // Palette entries repeat (several indices share a colour): compare colours, and index 255 exactly.
    const colour = (palette: Uint8Array, i: number) => `${palette[i * 3]},${palette[i * 3 + 1]},${palette[i * 3 + 2]}`
    let differing = 0
    for (let i = 0; i < original.indices.length; i++)
      if (
        colour(written.palette, written.indices[i]!) !== colour(original.palette, original.indices[i]!) ||
        (written.indices[i] === 255) !== (original.indices[i] === 255)
      )
        differing++
    expect(differing).toBe(0)
  })

  it('maps other colours to the nearest entry, odd widths padded, runs across 63 and of bytes ≥ 0xC0', () => {
    const width = 101
    const height = 3
    const data = new Uint8Array(width * height * 4)
    for (let i = 0; i < width * height; i++) data.set([i < 150 ? 250 : 3, i < 150 ? 2 : 240, 7, 255], i * 4)
    const indices = quantizeToPalette({ width, height, data })
    const decoded = decodePCX(encodePCX({ width, height, data }))
    expect([decoded.width, decoded.height]).toEqual([width, height])
    for (let i = 0; i < width * height; i++) {
      const p = indices[i]!
      expect([...decoded.data.subarray(i * 4, i * 4 + 3)]).toEqual([...QUAKE2_PALETTE.subarray(p * 3, p * 3 + 3)])
      expect(p).not.toBe(255)
    }
    expect(() => encodePCX({ width: 2, height: 2, data: new Uint8Array(3) })).toThrow(/2 × 2 RGBA needs 16 bytes, got 3/)
  })
})

describe('encodeTGA', () => {
  it('decodes back to the same RGBA, top row first', () => {
    const image = decodePCX(readAsset('quake2/faerie/pamila.pcx'))
    const back = decodeTGA(encodeTGA(image))
    expect([back.width, back.height]).toEqual([image.width, image.height])
    expect(Buffer.compare(Buffer.from(back.data), Buffer.from(image.data))).toBe(0)
  })
})
