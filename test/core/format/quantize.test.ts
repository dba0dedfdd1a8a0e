import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MD2Error } from '../../../src/core/MD2Error'
import { ANORMS } from '../../../src/core/format/normals'
import { computeVertexNormals, quantizeFrame } from '../../../src/core/format/quantizeFrame'
import { caughtMD2Error } from '../../support/errors'

function anormIndex(x: number, y: number, z: number): number {
  for (let i = 0; i < 162; i++) {
    if (ANORMS[i * 3] === Math.fround(x) && ANORMS[i * 3 + 1] === Math.fround(y) && ANORMS[i * 3 + 2] === Math.fround(z)) return i
  }
  throw new Error(`(${x}, ${y}, ${z}) is not an anorm`)
}

describe('quantizeFrame on hand-computed frames', () => {
  // x spans 0..255 (scale 1), y spans 0..127.5 (scale 0.5), z is flat at −10 (scale 0, the guard).
  const positions = Float32Array.of(0, 0, -10, 255, 127.5, -10, 100.4, 64.3, -10)

  it('computes scale, translate and the bytes as qdata does', () => {
    const { frame, error, maxError } = quantizeFrame(positions, undefined, 'flat01', [0, 1, 2])
    expect(frame.name).toBe('flat01')
    expect(frame.scale).toEqual([1, 0.5, 0])
    expect(frame.translate).toEqual([0, 0, -10])
    // v2: x = floor(100.4 / 1 + 0.5) = 100; y = floor(64.3 / 0.5 + 0.5) = floor(129.1) = 129; z = 0.
    // Face normal (v0 − v1) × (v2 − v1) has z = (−255)(−63.2) − (−127.5)(−154.6) < 0: straight down.
    const down = anormIndex(0, 0, -1)
    expect([...frame.vertices]).toEqual([0, 0, 0, down, 255, 255, 0, down, 100, 129, 0, down])
    // Decoded: 100 (off by 0.4), 64.5 (off by 0.2), −10 (exact).
    expect(error[0]).toBeCloseTo(Math.fround(100.4) - 100, 6)
    expect(error[1]).toBeCloseTo(64.5 - Math.fround(64.3), 6)
    expect(error[2]).toBe(0)
    expect(maxError).toBe(error[0])
  })

  it('rounds halves up: floor(x + 0.5)', () => {
    const { frame } = quantizeFrame(
      Float32Array.of(0, 0, 0, 2.5, 0, 0, 3.5, 0, 0, 255, 0, 0),
      Float32Array.of(0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1),
      'h',
    )
    expect([0, 1, 2, 3].map((v) => frame.vertices[v * 4])).toEqual([0, 3, 4, 255])
  })

  it('stores scale and translate as the float32 the file holds, and decodes within scale / 2', () => {
    const { frame, error } = quantizeFrame(Float32Array.of(-1.1, 2, 3, 0.9, 2.3, 3.7), Float32Array.of(1, 0, 0, 1, 0, 0), 'f')
    expect(frame.translate).toEqual([Math.fround(-1.1), 2, 3])
    expect(frame.scale).toEqual(
      [Math.fround(2 / 255), Math.fround(Math.fround(2.3) - 2) / 255, Math.fround(Math.fround(3.7) - 3) / 255].map(Math.fround),
    )
    for (let k = 0; k < 3; k++) expect(error[k]).toBeLessThanOrEqual(frame.scale[k]! / 2 + 1e-6)
  })

  it('picks the normal index from given normals (any length)', () => {
    const { frame } = quantizeFrame(Float32Array.of(0, 0, 0, 1, 1, 1), Float32Array.of(5, 0, 0, 0, 0, -0.1), 'n')
    expect([frame.vertices[3], frame.vertices[7]]).toEqual([anormIndex(1, 0, 0), anormIndex(0, 0, -1)])
  })
})

describe('qdata vertex normals', () => {
  // Two triangles folded along the y axis: one faces +z, one +x. Vertices 0 and 1 are on both.
  const positions = Float32Array.of(0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1)
  const triangles = [0, 1, 2, 1, 0, 3]

  it('averages unit face normals (v0 − v1) × (v2 − v1), unweighted, normalised', () => {
    const normals = computeVertexNormals(positions, triangles)
    const h = Math.fround(Math.SQRT1_2)
    expect([...normals]).toEqual([h, 0, h, h, 0, h, 0, 0, 1, 1, 0, 0])
  })

  it('takes the first anorm of the highest dot product', () => {
    const { frame } = quantizeFrame(positions, undefined, 'fold', triangles)
    // (1, 0, 1)/√2 is exactly as close to anorm 49 (0.68, 0.15, 0.72) as to its mirror (0.68, −0.15, 0.72): 49 comes first.
    const mirror = anormIndex(0.681718, -0.147621, 0.716567)
    expect(anormIndex(0.681718, 0.147621, 0.716567)).toBe(49)
    expect(mirror).toBeGreaterThan(49)
    expect([0, 1, 2, 3].map((v) => frame.vertices[v * 4 + 3])).toEqual([49, 49, anormIndex(0, 0, 1), anormIndex(1, 0, 0)])
  })

  it('weighs faces equally whatever their area', () => {
    // The same fold with the +x face 100 times larger: still the 45° average.
    const big = Float32Array.of(0, 0, 0, 0, 10, 0, 1, 0, 0, 0, 0, 10)
    expect(computeVertexNormals(big, triangles)[0]).toBeCloseTo(Math.SQRT1_2, 6)
  })

  it('leaves vertices on no face (or only degenerate ones) at zero, which picks anorm 0', () => {
    const normals = computeVertexNormals(Float32Array.of(0, 0, 0, 1, 1, 1, 2, 2, 2, 9, 9, 9), [0, 1, 2])
    expect([...normals]).toEqual(new Array(12).fill(0))
    expect(quantizeFrame(Float32Array.of(0, 0, 0, 1, 1, 1, 2, 2, 2), undefined, 'd', [0, 1, 2]).frame.vertices[3]).toBe(0)
  })
})

describe('quantizeFrame error bounds (property)', () => {
  it('decodes every vertex within scale / 2 per axis, bytes in 0..255', () => {
    const coordinate = fc.float({ min: -4096, max: 4096, noNaN: true, noDefaultInfinity: true })
    fc.assert(
      fc.property(fc.array(fc.tuple(coordinate, coordinate, coordinate), { minLength: 1, maxLength: 40 }), (points) => {
        const positions = Float32Array.from(points.flat())
        const normals = new Float32Array(positions.length).fill(1)
        const { frame, error } = quantizeFrame(positions, normals, 'p')
        for (let v = 0; v < points.length; v++) {
          for (let k = 0; k < 3; k++) {
            const decoded = frame.vertices[v * 4 + k]! * frame.scale[k]! + frame.translate[k]!
            const tolerance = frame.scale[k]! / 2 + Math.abs(positions[v * 3 + k]!) * 1e-6 + 1e-6
            expect(Math.abs(decoded - positions[v * 3 + k]!)).toBeLessThanOrEqual(tolerance)
            expect(Math.abs(decoded - positions[v * 3 + k]!)).toBeLessThanOrEqual(error[k]! + 1e-9)
          }
        }
      }),
    )
  })
})

const caught = caughtMD2Error

describe('quantizeFrame refuses', () => {
  it('NaN and infinite positions or normals', () => {
    expect(() => quantizeFrame(Float32Array.of(0, Number.NaN, 0), undefined, 'x', [0, 0, 0])).toThrow(MD2Error)
    const error = caught(() => quantizeFrame(Float32Array.of(0, 0, 0, Infinity, 0, 0), undefined, 'bad01', [0, 1, 0]))
    expect(error.code).toBe('BAD_VALUE')
    expect(error.message).toMatch(/frame "bad01": vertex 1 position is not finite/)
    expect(() => quantizeFrame(Float32Array.of(0, 0, 0), Float32Array.of(Number.NaN, 0, 0), 'x')).toThrow(/normal is not finite/)
  })

  it('bounds that overflow float32', () => {
    expect(() => quantizeFrame(Float64Array.of(-1e39, 0, 0, 1, 0, 0), Float32Array.of(1, 0, 0, 1, 0, 0), 'wide')).toThrow(
      /do not fit float32/,
    )
  })

  it('mismatched lengths, and no way to get normals', () => {
    expect(() => quantizeFrame(Float32Array.of(0, 0), undefined, 'x', [])).toThrow(/3 per vertex/)
    expect(() => quantizeFrame(Float32Array.of(0, 0, 0), Float32Array.of(0, 0), 'x')).toThrow(/2 normal numbers for 3/)
    expect(() => quantizeFrame(Float32Array.of(0, 0, 0), undefined, 'x')).toThrow(/either normals or the triangles/)
    expect(() => quantizeFrame(Float32Array.of(0, 0, 0), undefined, 'x', [0, 0, 1])).toThrow(/vertex 1, the frame has 1/)
  })
})
