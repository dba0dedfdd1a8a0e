import { describe, expect, it } from 'vitest'
import { sniffImageType } from '../../../src/core/images/decodedImage'
import { decodePCX, decodePCXIndexed } from '../../../src/core/images/pcx'
import { listAssets, readAsset } from '../../support/assets'
import { readPNG } from '../../support/png-reference'

/** decodePCX on the bundled skins: every file, the marker-less palettes, and three.js's PNG conversions. */
const ALL_PCX = listAssets('pcx')

function header(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, 128)
}

function baseName(path: string): string {
  return path
    .slice(path.lastIndexOf('/') + 1)
    .replace(/\.[^.]*$/, '')
    .toLowerCase()
}

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

describe('sniffImageType', () => {
  it('recognises PCX, PNG and JPEG assets, and not MD2 files', () => {
    expect(sniffImageType(readAsset('quake2/sydney/JACKET.PCX'))).toBe('pcx')
    expect(listAssets('png').every((path) => sniffImageType(readAsset(path)) === 'png')).toBe(true)
    expect(listAssets('jpg').every((path) => sniffImageType(readAsset(path)) === 'jpeg')).toBe(true)
    expect(sniffImageType(readAsset('quake2/ogro/tris.MD2'))).toBeUndefined()
    expect(sniffImageType(new Uint8Array(0))).toBeUndefined()
  })
})
