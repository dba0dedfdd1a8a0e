import { describe, expect, it } from 'vitest'
import { decodeFrame } from '../../../src/core/format/decodeFrame'
import { parseMD2 } from '../../../src/core/format/parseMD2'
import type { MD2Frame } from '../../../src/core/format/types'
import { checkWritable, md2Header, writeMD2, type WritableMD2 } from '../../../src/core/format/writeMD2'
import { ALL_MD2, readAsset } from '../../support/assets'
import { expectMD2Error } from '../../support/errors'

/** Element-wise equality; much faster than toEqual on the big arrays of a 1,007-frame model. */
function equalBytes(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

describe('writeMD2 round trip on every real model', () => {
  it('has models to test', () => {
    expect(ALL_MD2.length).toBeGreaterThanOrEqual(38)
  })

  it.each(ALL_MD2)('%s', (file) => {
    const original = parseMD2(readAsset(file), { name: file })
    const warnings: string[] = []
    const data = writeMD2(original, { onWarning: (message) => warnings.push(message) })
    const copy = parseMD2(data, { name: file })

    expect(copy.skins).toEqual(original.skins)
    expect(copy.st).toEqual(original.st)
    expect(copy.triangles).toEqual(original.triangles)
    expect(copy.frames.map((frame) => frame.name)).toEqual(original.frames.map((frame) => frame.name))
    expect(copy.animations).toEqual(original.animations)
    for (let f = 0; f < original.frames.length; f++) {
      const a = original.frames[f]!
      const b = copy.frames[f]!
      expect(b.scale).toEqual(a.scale)
      expect(b.translate).toEqual(a.translate)
      expect(equalBytes(b.vertices, a.vertices), `frame ${f} vertex bytes`).toBe(true)
      expect(equalBytes(decodeFrame(copy, f), decodeFrame(original, f)), `frame ${f} decoded`).toBe(true)
    }
    if (original.glCommandData.length > 0) {
      expect(copy.glCommandData).toEqual(original.glCommandData)
    } else {
      // None in the file: writeMD2 builds them, and they must draw every triangle.
      const drawn = copy.glCommands.reduce((sum, command) => sum + command.vertexCount - 2, 0)
      expect(drawn).toBe(copy.header.numTris)
    }

    // qdata layout: sections in order, no gaps, ofs_end = length.
    const h = copy.header
    expect(h.offsetSkins).toBe(68)
    expect(h.offsetST).toBe(h.offsetSkins + 64 * h.numSkins)
    expect(h.offsetTris).toBe(h.offsetST + 4 * h.numST)
    expect(h.offsetFrames).toBe(h.offsetTris + 12 * h.numTris)
    expect(h.frameSize).toBe(40 + 4 * h.numVertices)
    expect(h.offsetGlCmds).toBe(h.offsetFrames + h.frameSize * h.numFrames)
    expect(h.offsetEnd).toBe(h.offsetGlCmds + 4 * h.numGlCmds)
    expect(h.offsetEnd).toBe(data.length)
    expect(copy.header).toEqual(md2Header(h))

    // Only engine-limit warnings survive a rewrite: names come back clean, the layout is sound.
    expect(copy.warnings.filter((w) => !w.includes('engine limit') && !w.includes('frame names share'))).toEqual([])
    expect(warnings).toEqual(copy.warnings.filter((w) => w.includes('engine limit')))
    // Writing is idempotent.
    expect(equalBytes(writeMD2(copy), data)).toBe(true)
  })

  it('gives back byte for byte the files that are already in qdata layout with clean names', () => {
    const untouched = [
      'quake2/faerie/tris.md2',
      'quake2/ogro/w_bfg.MD2',
      'quake2/ratamahatta/tris.md2',
      'quake2/sydney/tris.md2',
      'ufoai/soldier-male/body.md2',
    ]
    for (const file of untouched) {
      const bytes = readAsset(file)
      expect(equalBytes(writeMD2(parseMD2(bytes)), bytes), file).toBe(true)
    }
  })

  it('rebuilds GL commands on request, and keeps qdata-identical ones identical', () => {
    const bytes = readAsset('quake2/sydney/tris.md2')
    const model = parseMD2(bytes)
    expect(equalBytes(writeMD2(model, { glCommands: 'rebuild' }), bytes)).toBe(true)
  })
})

/** A one-triangle model, small enough to check by hand. */
function tinyModel(overrides: Partial<WritableMD2> = {}): WritableMD2 {
  const frame: MD2Frame = {
    name: 'stand01',
    scale: [1, 1, 1],
    translate: [0, 0, 0],
    vertices: Uint8Array.of(0, 0, 0, 5, 10, 0, 0, 5, 0, 10, 0, 5),
  }
  const base = {
    skins: ['models/tiny/skin.pcx'],
    st: Int16Array.of(0, 0, 8, 0, 0, 8),
    triangles: Uint16Array.of(0, 2, 1, 0, 2, 1),
    frames: [frame],
    glCommands: [],
    glCommandData: new Int32Array(0),
    glCommandFloats: new Float32Array(0),
    animations: [],
    warnings: [],
  }
  const header = md2Header({ skinWidth: 16, skinHeight: 16, numSkins: 1, numVertices: 3, numST: 3, numTris: 1, numGlCmds: 0, numFrames: 1 })
  return { header, ...base, ...overrides }
}

describe('writeMD2 on a hand-made model', () => {
  it('writes the exact bytes of a one-triangle model', () => {
    const data = writeMD2(tinyModel())
    const view = new DataView(data.buffer)
    // 68 header + 64 skin + 3×4 st + 12 triangle + (40 + 3×4) frame + (1 + 3×3 + 1) GL words.
    expect(data.length).toBe(68 + 64 + 12 + 12 + 52 + 11 * 4)
    expect(String.fromCharCode(...data.subarray(0, 4))).toBe('IDP2')
    expect(view.getInt32(4, true)).toBe(8)
    expect(view.getInt32(36, true)).toBe(11) // num_glcmds
    expect(view.getInt32(64, true)).toBe(data.length) // ofs_end
    expect(String.fromCharCode(...data.subarray(68, 68 + 20))).toBe('models/tiny/skin.pcx')
    expect(data.subarray(68 + 20, 68 + 64).every((b) => b === 0)).toBe(true)
    const frame = 68 + 64 + 12 + 12
    expect(String.fromCharCode(...data.subarray(frame + 24, frame + 31))).toBe('stand01')
    expect(data.subarray(frame + 31, frame + 40).every((b) => b === 0)).toBe(true)
    expect([...data.subarray(frame + 40, frame + 52)]).toEqual([0, 0, 0, 5, 10, 0, 0, 5, 0, 10, 0, 5])
    // One triangle: a fan of 3 (fans are tried first), s,t = (texel + 0.5) / 16.
    const gl = frame + 52
    expect(view.getInt32(gl, true)).toBe(-3)
    expect([view.getFloat32(gl + 4, true), view.getFloat32(gl + 8, true), view.getInt32(gl + 12, true)]).toEqual([0.5 / 16, 0.5 / 16, 0])
    expect(view.getInt32(gl + 40, true)).toBe(0)
  })

  it('keeps sound GL commands and rebuilds unsound ones with a warning', () => {
    const kept = Int32Array.of(3, 0, 0, 0, 0, 0, 2, 0, 0, 1, 0)
    const keptCopy = parseMD2(writeMD2(tinyModel({ glCommandData: kept })))
    expect(keptCopy.glCommandData).toEqual(kept)

    const warnings: string[] = []
    const bad = Int32Array.of(3, 0, 0, 0, 0, 0, 7, 0, 0, 1, 0)
    const rebuilt = parseMD2(writeMD2(tinyModel({ glCommandData: bad }), { onWarning: (w) => warnings.push(w) }))
    expect(rebuilt.glCommandData[0]).toBe(-3)
    expect(warnings).toEqual([expect.stringMatching(/GL commands are unsound.*vertex 7.*rebuilt/)])

    const unterminated = Int32Array.of(3, 0, 0, 0, 0, 0, 2, 0, 0, 1)
    warnings.length = 0
    writeMD2(tinyModel({ glCommandData: unterminated }), { onWarning: (w) => warnings.push(w) })
    expect(warnings).toEqual([expect.stringMatching(/no 0 terminator/)])
  })

  it('warns past Quake II engine limits but still writes', () => {
    const frames = Array.from({ length: 513 }, (_, i) => ({ ...tinyModel().frames[0]!, name: `f${i}` }))
    const skins = Array.from({ length: 33 }, (_, i) => `s${i}.pcx`)
    const tall = tinyModel({ frames, skins })
    tall.header = { ...tall.header, skinHeight: 512 }
    const warnings: string[] = []
    const copy = parseMD2(writeMD2(tall, { onWarning: (w) => warnings.push(w) }))
    expect(warnings).toEqual([
      "513 frames: past Quake II's engine limit of 512",
      "33 skins: past Quake II's engine limit of 32",
      "512 texels of skin height: past Quake II's engine limit of 480",
    ])
    expect(copy.frames.length).toBe(513)
    expect(checkWritable(tall).warnings).toEqual(warnings)
  })

  it('warns about normal indices past the table', () => {
    const frame = { ...tinyModel().frames[0]!, vertices: Uint8Array.of(0, 0, 0, 162, 10, 0, 0, 5, 0, 10, 0, 255) }
    expect(checkWritable(tinyModel({ frames: [frame] })).warnings).toEqual([
      expect.stringMatching(/^2 vertices have normal indices of 162/),
    ])
  })
})

describe('writeMD2 refuses what cannot be written', () => {
  it('more than 65,535 vertices', () => {
    const vertices = new Uint8Array(65536 * 4)
    const model = tinyModel({ frames: [{ ...tinyModel().frames[0]!, vertices }] })
    expectMD2Error(() => writeMD2(model), 'UNWRITABLE', { text: /65536 vertices.*65535/ })
  })

  it('more than 65,535 texture coordinates', () => {
    expectMD2Error(() => writeMD2(tinyModel({ st: new Int16Array(65536 * 2) })), 'UNWRITABLE', { text: /65536 texture coordinates/ })
  })

  it('a frame name over 15 bytes, a skin name over 63', () => {
    const longFrame = { ...tinyModel().frames[0]!, name: 'abcdefghijklmnop' }
    expectMD2Error(() => writeMD2(tinyModel({ frames: [longFrame] })), 'UNWRITABLE', {
      text: /frame 0 name "abcdefghijklmnop" has 16 bytes; at most 15/,
    })
    expect(() => writeMD2(tinyModel({ frames: [{ ...longFrame, name: 'abcdefghijklmno' }] }))).not.toThrow()
    expectMD2Error(() => writeMD2(tinyModel({ skins: ['x'.repeat(64)] })), 'UNWRITABLE', { text: /skin 0 .* has 64 bytes; at most 63/ })
    expect(() => writeMD2(tinyModel({ skins: ['x'.repeat(63)] }))).not.toThrow()
  })

  it('names a byte cannot hold', () => {
    const frame = { ...tinyModel().frames[0]!, name: 'run\u20ac1' }
    expectMD2Error(() => writeMD2(tinyModel({ frames: [frame] })), 'UNWRITABLE', { text: /U\+20ac/ })
    expectMD2Error(() => writeMD2(tinyModel({ skins: ['a\0b'] })), 'UNWRITABLE', { text: /U\+0000/ })
  })

  it('NaN or infinite positions (scale, translate)', () => {
    const nan = { ...tinyModel().frames[0]!, translate: [0, Number.NaN, 0] as const }
    expectMD2Error(() => writeMD2(tinyModel({ frames: [nan] })), 'UNWRITABLE', { text: /frame 0 translate .*not a finite float32/ })
    // Finite as a double, infinite as the float32 the file stores.
    const huge = { ...tinyModel().frames[0]!, scale: [1e39, 1, 1] as const }
    expectMD2Error(() => writeMD2(tinyModel({ frames: [huge] })), 'UNWRITABLE', { text: /frame 0 scale/ })
    // Both finite, but 255 × scale + translate overflows the float32 positions are decoded to.
    const far = { ...tinyModel().frames[0]!, scale: [2e36, 1, 1] as const }
    expectMD2Error(() => writeMD2(tinyModel({ frames: [far] })), 'UNWRITABLE', { text: /positions reach .* on axis x/ })
  })

  it('empty models, bad indices, mismatched frames, unusable skin sizes', () => {
    expectMD2Error(() => writeMD2(tinyModel({ frames: [] })), 'EMPTY')
    expectMD2Error(() => writeMD2(tinyModel({ triangles: new Uint16Array(0) })), 'EMPTY', { text: /no triangles/ })
    expectMD2Error(() => writeMD2(tinyModel({ st: new Int16Array(0) })), 'EMPTY', { text: /no texture coordinates/ })
    expectMD2Error(() => writeMD2(tinyModel({ triangles: Uint16Array.of(0, 1, 3, 0, 0, 0) })), 'BAD_INDEX', { text: /vertex 3/ })
    expectMD2Error(() => writeMD2(tinyModel({ triangles: Uint16Array.of(0, 1, 2, 0, 0, 3) })), 'BAD_INDEX', {
      text: /texture coordinate 3/,
    })
    const short = { ...tinyModel().frames[0]!, vertices: new Uint8Array(8) }
    expectMD2Error(() => writeMD2(tinyModel({ frames: [tinyModel().frames[0]!, short] })), 'BAD_ARGUMENT', { text: /frame 1 holds 8/ })
    const noSkin = tinyModel()
    noSkin.header = { ...noSkin.header, skinWidth: 0 }
    expectMD2Error(() => writeMD2(noSkin), 'UNWRITABLE', { text: /skinWidth 0/ })
  })
})
