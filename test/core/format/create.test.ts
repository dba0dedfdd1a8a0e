import { describe, expect, it } from 'vitest'
import { createMD2, type CreateMD2Input } from '../../../src/core/format/createMD2'
import { decodeFrame } from '../../../src/core/format/decodeFrame'
import { glCommandTopology } from '../../../src/core/format/glCommands'
import { parseMD2 } from '../../../src/core/format/parseMD2'
import { writeMD2 } from '../../../src/core/format/writeMD2'
import { caughtMD2Error } from '../../support/errors'

/** A square pyramid (5 vertices, 6 triangles, clockwise seen from outside) whose apex bobs over 4 frames. */
function pyramid(overrides: Partial<CreateMD2Input> = {}): CreateMD2Input {
  const frames = [0, 1, 2, 3].map((f) => Float32Array.of(-8, -8, 0, 8, -8, 0, 8, 8, 0, -8, 8, 0, 0, 0, 12 + 2 * Math.sin(f)))
  // Sides (apex 4) and the base, clockwise from outside (qdata's face normal (v0−v1)×(v2−v1) points out).
  const triangles = [0, 4, 1, 1, 4, 2, 2, 4, 3, 3, 4, 0, 0, 1, 2, 0, 2, 3]
  const uvs = Float32Array.of(0, 1, 0.5, 1, 1, 1, 0.5, 1, 0.5, 0)
  return {
    frames,
    triangles,
    uvs,
    skinWidth: 64,
    skinHeight: 32,
    skins: ['models/pyramid/skin.pcx'],
    frameNames: ['bob01', 'bob02', 'bob03', 'rest'],
    name: 'pyramid.md2',
    ...overrides,
  }
}

const caught = caughtMD2Error

describe('createMD2', () => {
  it('builds a model that writes and parses back equal', () => {
    const model = createMD2(pyramid())
    const copy = parseMD2(writeMD2(model), { name: 'pyramid.md2' })
    expect(copy).toEqual(model)
  })

  it('lays out the header, st, triangles and animations as the parser reports them', () => {
    const model = createMD2(pyramid())
    expect(model.header).toMatchObject({
      skinWidth: 64,
      skinHeight: 32,
      numVertices: 5,
      numTris: 6,
      numFrames: 4,
      numSkins: 1,
      frameSize: 60,
    })
    // Texels in the order triangle corners meet them: vertex 0 (0, 32), 4 (32, 0), 1 (32, 32), 2 (64, 32);
    // vertex 3 has the same uv as vertex 1 and shares its st.
    expect([...model.st]).toEqual([0, 32, 32, 0, 32, 32, 64, 32])
    expect(model.header.numST).toBe(4)
    expect([...model.triangles.subarray(0, 12)]).toEqual([0, 4, 1, 0, 1, 2, 1, 4, 2, 2, 1, 3])
    expect(model.animations.map((a) => [a.name, a.start, a.end])).toEqual([
      ['bob', 0, 2],
      ['rest', 3, 3],
    ])
    expect(model.warnings).toEqual([])
    expect(model.skins).toEqual(['models/pyramid/skin.pcx'])
  })

  it('keeps every frame within quantization error', () => {
    const input = pyramid()
    const model = createMD2(input)
    input.frames.forEach((positions, f) => {
      const decoded = decodeFrame(model, f)
      const { scale } = model.frames[f]!
      for (let i = 0; i < positions.length; i++) {
        expect(Math.abs(decoded[i]! - positions[i]!)).toBeLessThanOrEqual(scale[i % 3]! / 2 + 1e-5)
      }
    })
  })

  it('builds GL commands that draw every triangle', () => {
    const model = createMD2(pyramid())
    const drawn = glCommandTopology(model.glCommandData).reduce((sum, c) => sum + c.indices.length - 2, 0)
    expect(drawn).toBe(6)
    expect(model.glCommands.length).toBe(glCommandTopology(model.glCommandData).length)
  })

  it('takes uvs per triangle corner as well, with the same result', () => {
    const input = pyramid()
    const corners = Array.from(input.triangles as number[], (v) => [input.uvs[v * 2]!, input.uvs[v * 2 + 1]!]).flat()
    expect(createMD2({ ...input, uvs: Float32Array.from(corners) })).toEqual(createMD2(input))
  })

  it('gives seams their own st: a corner uv that differs per triangle', () => {
    const input = pyramid()
    const corners = Array.from(input.triangles as number[], (v) => [input.uvs[v * 2]!, input.uvs[v * 2 + 1]!]).flat()
    corners[0] = 0.25 // triangle 0, corner 0 (vertex 0): u 0 → 0.25 on this face only
    const model = createMD2({ ...input, uvs: Float32Array.from(corners) })
    expect(model.header.numST).toBe(5)
    expect([model.st[0], model.st[1]]).toEqual([16, 32])
    expect([...model.triangles.subarray(0, 6)]).toEqual([0, 4, 1, 0, 1, 2])
  })

  it('uses the layout the caller names when both fit', () => {
    // 3 vertices, 1 triangle: 6 numbers fit per vertex and per corner alike.
    const input: CreateMD2Input = {
      frames: [Float32Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0)],
      triangles: [0, 2, 1],
      uvs: Float32Array.of(0, 0, 1, 0, 0, 1),
      skinWidth: 8,
      skinHeight: 8,
    }
    expect([...createMD2(input).st]).toEqual([0, 0, 0, 8, 8, 0])
    expect([...createMD2({ ...input, uvLayout: 'corner' }).st]).toEqual([0, 0, 8, 0, 0, 8])
  })

  it('names frames frame000, frame001, ... by default and computes normals from the faces', () => {
    const model = createMD2(pyramid({ frameNames: undefined }))
    expect(model.frames.map((f) => f.name)).toEqual(['frame000', 'frame001', 'frame002', 'frame003'])
    expect(model.animations.map((a) => [a.name, a.start, a.end])).toEqual([['frame', 0, 3]])
    // The apex normal is the average of 4 sloped faces: straight up, anorm 5 (0, 0, 1).
    expect(model.frames[0]!.vertices[4 * 4 + 3]).toBe(5)
  })

  it('uses given normals and an animation table', () => {
    const up = new Float32Array(15).map((_, i) => (i % 3 === 2 ? 1 : 0))
    const model = createMD2(pyramid({ normals: [up, undefined, up, up], animations: [{ name: 'all', start: 0, end: 3, fps: 5 }] }))
    expect(model.frames[0]!.vertices[3]).toBe(5)
    expect(model.animations).toEqual([{ name: 'all', start: 0, end: 3, fps: 5, source: 'table' }])
  })

  it('warns past Quake II engine limits, as the parser does', () => {
    const frame = pyramid().frames[0]!
    const model = createMD2(pyramid({ frames: new Array(513).fill(frame), frameNames: undefined }))
    expect(model.warnings[0]).toBe("513 frames: past Quake II's engine limit of 512")
    expect(parseMD2(writeMD2(model)).warnings).toEqual(model.warnings)
  })
})

describe('createMD2 refuses', () => {
  it('more than 65,535 vertices', () => {
    const error = caught(() =>
      createMD2(pyramid({ frames: [new Float32Array(65536 * 3)], uvs: new Float32Array(65536 * 2), frameNames: undefined })),
    )
    expect(error.code).toBe('UNWRITABLE')
    expect(error.message).toMatch(/65536 vertices/)
  })

  it('frame names over 15 bytes and skin names over 63', () => {
    expect(caught(() => createMD2(pyramid({ frameNames: ['a_very_long_name', 'b', 'c', 'd'] }))).code).toBe('UNWRITABLE')
    expect(caught(() => createMD2(pyramid({ skins: ['s'.repeat(64)] }))).message).toMatch(/has 64 bytes; at most 63/)
  })

  it('NaN positions and uvs', () => {
    const frames = pyramid().frames.map((f) => Float32Array.from(f))
    frames[2]![4] = Number.NaN
    const error = caught(() => createMD2(pyramid({ frames })))
    expect(error.code).toBe('BAD_VALUE')
    expect(error.message).toMatch(/frame "bob03": vertex 1 position is not finite/)
    expect(caught(() => createMD2(pyramid({ uvs: new Float32Array(10).fill(Number.NaN) }))).code).toBe('BAD_VALUE')
  })

  it('bad triangles, lengths and sizes', () => {
    expect(caught(() => createMD2(pyramid({ triangles: [0, 1, 5] }))).code).toBe('BAD_INDEX')
    expect(caught(() => createMD2(pyramid({ triangles: [] }))).code).toBe('EMPTY')
    expect(caught(() => createMD2(pyramid({ frames: [] }))).code).toBe('EMPTY')
    expect(caught(() => createMD2(pyramid({ frames: [new Float32Array(15), new Float32Array(12)] }))).message).toMatch(/frame 1 has 12/)
    expect(caught(() => createMD2(pyramid({ uvs: new Float32Array(7) }))).message).toMatch(/fit neither 5 vertices/)
    expect(caught(() => createMD2(pyramid({ skinWidth: 0 }))).code).toBe('BAD_ARGUMENT')
    expect(caught(() => createMD2(pyramid({ uvs: new Float32Array(10).fill(1000) }))).message).toMatch(/outside int16/)
  })
})
