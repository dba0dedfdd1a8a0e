import { describe, expect, it } from 'vitest'
import { decodePCX, decodePCXIndexed } from '../../../src/core/images/pcx'
import { readAsset } from '../../support/assets'
import { makePCX } from '../../support/pcx'
import { TEST_PALETTE } from '../../support/pcx-test-palette'
import { expectMD2Error } from '../../support/errors'
import { fuzzImageDecoder } from '../../support/image-fuzz'

/** A BAD_IMAGE naming `part`, whose first word is the file part. */
const expectBadImage = (run: () => unknown, part: string) => expectMD2Error(run, 'BAD_IMAGE', { section: part.split(' ')[0], text: part })

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
