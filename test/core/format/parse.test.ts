import { describe, expect, it } from 'vitest'
import { MD2Error, blendFrames, decodeFrame, decodeFrameNormals, findAnimation, frameBounds, parseMD2 } from '../../../src/core'
import { blendVerticesYUp, buildVertexLayout, resolveAnimations } from '../../../src/core/internal'
import { ALL_MD2, readAsset } from '../../support/assets'
import { patch, rawHeader, rawVertex, withHeader } from '../../support/md2-bytes'

const OGRO = 'quake2/ogro/tris.MD2'
const ogroBytes = readAsset(OGRO)
const ogroHeader = rawHeader(ogroBytes)

function parseError(bytes: Uint8Array | ArrayBuffer, name = 'damaged.md2'): MD2Error {
  try {
    parseMD2(bytes, { name })
  } catch (error) {
    expect(error).toBeInstanceOf(MD2Error)
    return error as MD2Error
  }
  throw new Error('expected parseMD2 to throw')
}

describe('parseMD2 on every real model in the repository', () => {
  it('finds the bundled models', () => {
    expect(ALL_MD2.length).toBeGreaterThanOrEqual(38)
  })

  it.each(ALL_MD2)('%s: header, sections and names agree with an independent read', (path) => {
    const bytes = readAsset(path)
    const raw = rawHeader(bytes)
    const model = parseMD2(bytes, { name: path })
    expect(model.header).toEqual(raw)
    expect(model.name).toBe(path)
    expect(model.skins).toHaveLength(raw.numSkins)
    expect(model.st).toHaveLength(raw.numST * 2)
    expect(model.triangles).toHaveLength(raw.numTris * 6)
    expect(model.frames).toHaveLength(raw.numFrames)
    // Frame names as the bytes say, up to the first NUL.
    const view = new DataView(bytes.buffer, bytes.byteOffset)
    for (const f of [0, raw.numFrames - 1]) {
      const nameBytes = bytes.subarray(raw.offsetFrames + f * raw.frameSize + 24, raw.offsetFrames + f * raw.frameSize + 40)
      const end = nameBytes.indexOf(0)
      expect(model.frames[f]!.name).toBe(String.fromCharCode(...nameBytes.subarray(0, end < 0 ? 16 : end)))
      expect(model.frames[f]!.scale[0]).toBe(view.getFloat32(raw.offsetFrames + f * raw.frameSize, true))
    }
    // The last triangle's indices, read by hand.
    const lastTri = raw.offsetTris + (raw.numTris - 1) * 12
    for (let k = 0; k < 6; k++) expect(model.triangles[(raw.numTris - 1) * 6 + k]).toBe(view.getUint16(lastTri + k * 2, true))
    expect(model.animations.length).toBeGreaterThan(0)
    expect(model.warnings.every((w) => typeof w === 'string')).toBe(true)
  })
})

describe('parseMD2 details', () => {
  const ogro = parseMD2(ogroBytes, { name: OGRO })

  it('reads Ogro: 13 skin paths, 199 frames, 358 vertices, GL commands', () => {
    expect(ogro.skins).toHaveLength(13)
    expect(ogro.skins[0]).toBe('players/ogro/igdosh.pcx')
    expect(ogro.header).toMatchObject({ skinWidth: 256, skinHeight: 256, numVertices: 358, numTris: 670, numFrames: 199 })
    expect(ogro.frames[0]!.name).toBe('stand001')
    expect(ogro.frames[198]!.name).toBe('boom')
    expect(ogro.glCommands.length).toBeGreaterThan(100)
    expect(ogro.warnings).toEqual([])
  })

  it('keeps frames quantized as zero-copy views on the input', () => {
    const frame = ogro.frames[10]!
    expect(frame.vertices).toBeInstanceOf(Uint8Array)
    expect(frame.vertices.buffer).toBe(ogroBytes.buffer)
    expect(frame.vertices.byteOffset).toBe(ogroBytes.byteOffset + ogroHeader.offsetFrames + 10 * ogroHeader.frameSize + 40)
    expect(frame.vertices.length).toBe(358 * 4)
  })

  it('decodes GL commands: every command is a strip or fan of ≥ 3 valid vertices with s,t in the skin', () => {
    let vertices = 0
    for (const command of ogro.glCommands) {
      expect(command.vertexCount).toBeGreaterThanOrEqual(3)
      for (let k = 0; k < command.vertexCount; k++) {
        const at = command.start + k * 3
        expect(ogro.glCommandData[at + 2]).toBeLessThan(358)
        expect(ogro.glCommandFloats[at]).toBeGreaterThanOrEqual(0)
        expect(ogro.glCommandFloats[at]).toBeLessThanOrEqual(1)
      }
      vertices += command.vertexCount
    }
    // count words + 3 per vertex + the 0 terminator fill the section exactly.
    expect(ogro.glCommands.length + vertices * 3 + 1).toBe(ogroHeader.numGlCmds)
    expect(ogro.glCommands.map((c) => c.mode)).toContain('fan')
    expect(ogro.glCommands.map((c) => c.mode)).toContain('strip')
  })

  it('accepts the UFO:AI soldier past the 512-frame engine limit, with a warning', () => {
    const soldier = parseMD2(readAsset('ufoai/soldier-male/body.md2'))
    expect(soldier.frames).toHaveLength(1007)
    expect(soldier.warnings.join('\n')).toMatch(/1007 frames: past Quake II's engine limit of 512/)
  })

  it('accepts a model with no GL commands (bloodspider)', () => {
    const spider = parseMD2(readAsset('ufoai/bloodspider/bloodspider.md2'))
    expect(spider.glCommands).toEqual([])
    expect(spider.glCommandData).toHaveLength(0)
    expect(spider.skins).toHaveLength(4)
  })

  it('warns about bytes after a frame name NUL (pknight "run1\\0 40") and keeps the clean name', () => {
    const knight = parseMD2(readAsset('quake2/pknight/tris.md2'))
    expect(knight.frames[40]!.name).toBe('run1')
    expect(knight.warnings.join('\n')).toMatch(/frame name\(s\) carry bytes after their NUL/)
  })

  it('follows the offsets whatever the section order, with gaps (GL commands first, as most shipped files do)', () => {
    const h = ogroHeader
    const sections = {
      glcmds: ogroBytes.subarray(h.offsetGlCmds, h.offsetGlCmds + h.numGlCmds * 4),
      frames: ogroBytes.subarray(h.offsetFrames, h.offsetFrames + h.numFrames * h.frameSize),
      tris: ogroBytes.subarray(h.offsetTris, h.offsetTris + h.numTris * 12),
      st: ogroBytes.subarray(h.offsetST, h.offsetST + h.numST * 4),
      skins: ogroBytes.subarray(h.offsetSkins, h.offsetSkins + h.numSkins * 64),
    }
    const gap = 7 // odd gaps also make every section unaligned: the parser must copy, not view
    const out = new Uint8Array(ogroBytes.length + gap * 5)
    out.set(ogroBytes.subarray(0, 68))
    let at = 68
    const offsets: Record<string, number> = {}
    for (const [name, data] of Object.entries(sections)) {
      at += gap
      offsets[name] = at
      out.set(data, at)
      at += data.length
    }
    const moved = withHeader(out, {
      offsetGlCmds: offsets.glcmds!,
      offsetFrames: offsets.frames!,
      offsetTris: offsets.tris!,
      offsetST: offsets.st!,
      offsetSkins: offsets.skins!,
      offsetEnd: out.length,
    })
    const model = parseMD2(moved)
    expect(model.skins).toEqual(ogro.skins)
    expect(Array.from(model.st)).toEqual(Array.from(ogro.st))
    expect(Array.from(model.triangles)).toEqual(Array.from(ogro.triangles))
    expect(Array.from(model.glCommandData)).toEqual(Array.from(ogro.glCommandData))
    expect(decodeFrame(model, 123)).toEqual(decodeFrame(ogro, 123))
    expect(model.warnings).toEqual([])
  })

  it('parses a Uint8Array view at an odd byte offset the same as the original', () => {
    const shifted = new Uint8Array(ogroBytes.length + 1)
    shifted.set(ogroBytes, 1)
    const model = parseMD2(shifted.subarray(1))
    expect(Array.from(model.triangles)).toEqual(Array.from(ogro.triangles))
    expect(decodeFrame(model, 50)).toEqual(decodeFrame(ogro, 50))
  })

  it('accepts an ArrayBuffer', () => {
    const model = parseMD2(ogroBytes.slice().buffer)
    expect(model.frames).toHaveLength(199)
  })

  it('clamps normal indices past the table with a warning (lit as straight up)', () => {
    const at = ogroHeader.offsetFrames + 40 + 5 * 4 + 3 // frame 0, vertex 5, normal byte
    const model = parseMD2(patch(ogroBytes, at, 200, 'uint8'))
    expect(model.warnings.join('\n')).toMatch(/1 vertices in 1 frame\(s\) have normal indices of 162 or more/)
    const normals = decodeFrameNormals(model, 0)
    expect(Array.from(normals.subarray(15, 18))).toEqual([0, 0, 1])
  })

  it('drops GL commands with garbage vertex indices, keeps the model, and says so', () => {
    const at = ogroHeader.offsetGlCmds + 4 + 8 // first command, first vertex, its xyz index
    const model = parseMD2(patch(ogroBytes, at, 60000, 'int32'))
    expect(model.glCommands).toEqual([])
    expect(model.glCommandData).toHaveLength(0)
    expect(model.warnings.join('\n')).toMatch(/GL commands dropped: command at word 0 uses vertex 60000/)
    expect(model.frames).toHaveLength(199)
  })

  it('warns when the GL command list has no terminator but keeps the commands', () => {
    const model = parseMD2(patch(ogroBytes, ogroHeader.offsetGlCmds + (ogroHeader.numGlCmds - 1) * 4, 0, 'int32'))
    expect(model.glCommands.length).toBeGreaterThan(0)
    const cut = withHeader(ogroBytes, { numGlCmds: ogroHeader.numGlCmds - 1 })
    const unterminated = parseMD2(cut)
    expect(unterminated.glCommands).toHaveLength(ogro.glCommands.length)
    expect(unterminated.warnings.join('\n')).toMatch(/no 0 terminator/)
  })

  it('warns when ofs_end disagrees with the data length', () => {
    const model = parseMD2(withHeader(ogroBytes, { offsetEnd: 12345 }))
    expect(model.warnings).toContain(`ofs_end says 12345 bytes, the data has ${ogroBytes.length}`)
  })

  it('decodeFrame matches an independent decode of the bytes', () => {
    // [frame, vertex]: the first, one in the middle, the last of each.
    // prettier-ignore
    for (const [f, v] of [[0, 0], [57, 100], [198, 357]] as const) {
      const positions = decodeFrame(ogro, f)
      const expected = rawVertex(ogroBytes, f, v)
      for (let k = 0; k < 3; k++) expect(positions[v * 3 + k]).toBeCloseTo(expected[k]!, 5)
    }
  })
})

describe('parseMD2 refuses damaged files with a typed error', () => {
  it.each([0, 4, 67])('a %i-byte file is TRUNCATED in the header', (length) => {
    const error = parseError(ogroBytes.subarray(0, length))
    expect(error.code).toBe('TRUNCATED')
    expect(error.section).toBe('header')
    expect(error.message).toMatch(/damaged\.md2, header at offset 0: the header needs 68 bytes/)
  })

  it('BAD_MAGIC for a file that is not IDP2 (even when its version field says 8)', () => {
    const notMd2 = patch(ogroBytes, 0, 0x33504449, 'int32') // "IDP3", an MD3
    const error = parseError(notMd2)
    expect(error.code).toBe('BAD_MAGIC')
    expect(error.message).toContain('"IDP3"')
  })

  it('BAD_VERSION for version 7', () => {
    const error = parseError(withHeader(ogroBytes, { version: 7 }))
    expect(error.code).toBe('BAD_VERSION')
    expect(error.offset).toBe(4)
  })

  it('TRUNCATED when the frames run past the end, naming section and offset', () => {
    const error = parseError(ogroBytes.subarray(0, ogroHeader.offsetFrames + 1000))
    expect(error.code).toBe('TRUNCATED')
    expect(error.section).toBe('frames')
    expect(error.offset).toBe(ogroHeader.offsetFrames)
  })

  it('a 100-byte file claiming 2^31−1 frames is refused before anything is read', () => {
    // Header + 1 st + 1 triangle + the start of one frame: sound but for the frame count.
    const tiny = withHeader(new Uint8Array(100), {
      ident: 844121161,
      version: 8,
      skinWidth: 8,
      skinHeight: 8,
      frameSize: 44,
      numVertices: 1,
      numST: 1,
      numTris: 1,
      numFrames: 2 ** 31 - 1,
      offsetST: 68,
      offsetTris: 72,
      offsetFrames: 84,
      offsetEnd: 100,
    })
    const error = parseError(tiny)
    expect(error.code).toBe('TRUNCATED')
    expect(error.section).toBe('frames')
    expect(error.message).toMatch(/2147483647 × 44 bytes end at 94489280552, past the end of the data \(100 bytes\)/)
  })

  it('OUT_OF_RANGE for a negative count', () => {
    const error = parseError(withHeader(ogroBytes, { numTris: -1 }))
    expect(error.code).toBe('OUT_OF_RANGE')
    expect(error.offset).toBe(32)
  })

  it('OUT_OF_RANGE for a section offset past the end or inside the header', () => {
    expect(parseError(withHeader(ogroBytes, { offsetST: ogroBytes.length + 10 })).code).toBe('OUT_OF_RANGE')
    const inHeader = parseError(withHeader(ogroBytes, { offsetTris: 12 }))
    expect(inHeader.code).toBe('OUT_OF_RANGE')
    expect(inHeader.section).toBe('triangles')
  })

  it('BAD_INDEX for a triangle that names a vertex that does not exist', () => {
    const error = parseError(patch(ogroBytes, ogroHeader.offsetTris + 12 * 3 + 2, 358, 'uint16'))
    expect(error.code).toBe('BAD_INDEX')
    expect(error.message).toMatch(/triangle 3 uses vertex 358, the model has 358/)
    expect(error.offset).toBe(ogroHeader.offsetTris + 12 * 3 + 2)
  })

  it('BAD_INDEX for a triangle that names a texture coordinate that does not exist', () => {
    const error = parseError(patch(ogroBytes, ogroHeader.offsetTris + 6, 9999, 'uint16'))
    expect(error.code).toBe('BAD_INDEX')
    expect(error.message).toMatch(/texture coordinate 9999/)
  })

  it.each([
    ['numVertices', /no vertices/],
    ['numTris', /no triangles/],
    ['numFrames', /no frames/],
    ['numST', /no texture coordinates/],
  ] as const)('EMPTY when %s is 0', (field, message) => {
    const error = parseError(withHeader(ogroBytes, { [field]: 0 }))
    expect(error.code).toBe('EMPTY')
    expect(error.message).toMatch(message)
  })

  it('BAD_FRAME_SIZE when frameSize cannot hold the vertices', () => {
    const error = parseError(withHeader(ogroBytes, { frameSize: 40 + 4 * 357 }))
    expect(error.code).toBe('BAD_FRAME_SIZE')
  })

  it('BAD_VALUE for a NaN frame scale', () => {
    const error = parseError(patch(ogroBytes, ogroHeader.offsetFrames + 3 * ogroHeader.frameSize + 4, Number.NaN, 'float32'))
    expect(error.code).toBe('BAD_VALUE')
    expect(error.message).toMatch(/frame 3 scale is not finite/)
  })

  it('BAD_ARGUMENT for something that is not bytes', () => {
    expect(() => parseMD2('tris.md2' as unknown as Uint8Array)).toThrow(MD2Error)
  })
})

describe('frames are built lazily', () => {
  it('parsing and the library paths make no frame objects; model.frames, once read, agrees with frameNames, frameTransforms and frameData', () => {
    const model = parseMD2(ogroBytes.slice())
    const isLazy = () => typeof Object.getOwnPropertyDescriptor(model, 'frames')?.get === 'function'
    expect(isLazy()).toBe(true)
    const { numFrames, numVertices, frameSize, offsetFrames } = model.header
    expect(model.frameNames).toHaveLength(numFrames)
    expect(model.frameTransforms).toHaveLength(numFrames * 6)
    expect(model.frameStride).toBe(frameSize)
    expect(model.frameData.byteLength).toBe(numFrames * frameSize)
    expect(model.frameData.byteOffset).toBe(offsetFrames)

    // Decoding, blending, bounds, animations and the vertex layout read the frame store only.
    const layout = buildVertexLayout(model)
    const positions = new Float32Array(layout.vertexCount * 3)
    blendVerticesYUp(
      model,
      { from: 3, to: 4, t: 0.5 },
      { xyzIndex: layout.xyzIndex, positions, normals: new Float32Array(layout.vertexCount * 3) },
    )
    decodeFrame(model, 7)
    decodeFrameNormals(model, 7)
    blendFrames(model, 0, 1, 0.5)
    frameBounds(model, 2)
    findAnimation(model, { start: 0, end: 1000 })
    resolveAnimations(model.frameNames, undefined, [])
    expect(isLazy()).toBe(true)

    const frames = model.frames
    expect(isLazy()).toBe(false)
    expect(model.frames).toBe(frames) // built once, then kept
    expect(frames).toHaveLength(numFrames)
    const view = new DataView(ogroBytes.buffer, ogroBytes.byteOffset, ogroBytes.byteLength)
    frames.forEach((frame, f) => {
      expect(frame.name).toBe(model.frameNames[f])
      expect([...frame.scale, ...frame.translate]).toEqual([...model.frameTransforms.subarray(f * 6, f * 6 + 6)])
      const offset = offsetFrames + f * frameSize
      expect([...frame.scale, ...frame.translate]).toEqual([0, 1, 2, 3, 4, 5].map((k) => view.getFloat32(offset + k * 4, true)))
      expect(frame.vertices.buffer).toBe(model.frameData.buffer)
      expect(frame.vertices.byteOffset).toBe(model.frameData.byteOffset + f * model.frameStride + 40)
      expect(frame.vertices).toEqual(ogroBytes.subarray(offset + 40, offset + 40 + numVertices * 4))
    })
  })
})
