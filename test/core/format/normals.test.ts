import { describe, expect, it } from 'vitest'
import { ANORMS, ANORMS_256, ANORMTAB, NUM_VERTEX_NORMALS, nearestNormalIndex, shadeDots } from '../../../src/core/internal'

describe('Quake II normal tables', () => {
  it('162 unit normals, spread over the whole sphere', () => {
    expect(ANORMS).toHaveLength(NUM_VERTEX_NORMALS * 3)
    const sum = [0, 0, 0]
    for (let i = 0; i < NUM_VERTEX_NORMALS; i++) {
      expect(Math.hypot(ANORMS[i * 3]!, ANORMS[i * 3 + 1]!, ANORMS[i * 3 + 2]!)).toBeCloseTo(1, 5)
      for (let k = 0; k < 3; k++) sum[k]! += ANORMS[i * 3 + k]!
    }
    // A symmetric set sums to (about) zero.
    for (const s of sum) expect(Math.abs(s)).toBeLessThan(1e-4)
  })

  it('the padded table maps 162–255 to straight up', () => {
    expect(Array.from(ANORMS_256.subarray(161 * 3, 162 * 3))).toEqual(Array.from(ANORMS.subarray(161 * 3)))
    for (let i = 162; i < 256; i++) expect(Array.from(ANORMS_256.subarray(i * 3, i * 3 + 3))).toEqual([0, 0, 1])
  })

  it('anormtab has 16 rows of 256, values 0.70–1.99, columns 162–255 are 1', () => {
    expect(ANORMTAB).toHaveLength(16 * 256)
    let min = Infinity
    let max = -Infinity
    for (let r = 0; r < 16; r++) {
      for (let i = 0; i < 162; i++) {
        min = Math.min(min, ANORMTAB[r * 256 + i]!)
        max = Math.max(max, ANORMTAB[r * 256 + i]!)
      }
      for (let i = 162; i < 256; i++) expect(ANORMTAB[r * 256 + i]).toBe(1)
    }
    expect(min).toBeCloseTo(0.7, 5)
    expect(max).toBeCloseTo(1.99, 5)
  })

  it("anormtab matches spot values of id Software's anormtab.h", () => {
    // [row, column, value] read from the Quake II source release.
    // prettier-ignore
    const spots: [number, number, number][] = [
      [0, 0, 1.23], [0, 5, 1.71], [0, 11, 1.97], [0, 49, 1.99], [0, 80, 0.71], [0, 161, 0.76],
      [1, 0, 1.26], [1, 35, 1.24], [1, 100, 1.55], [1, 161, 0.82], [4, 0, 1.6], [8, 0, 1.97], [8, 15, 1.99],
    ]
    for (const [row, column, value] of spots) expect(ANORMTAB[row * 256 + column]).toBeCloseTo(value, 5)
    // normal 5 is straight up: the same under every yaw
    for (let r = 0; r < 16; r++) expect(ANORMTAB[r * 256 + 5]).toBeCloseTo(1.71, 5)
  })

  it('shadeDots picks the row for a yaw as Quake II does', () => {
    expect(shadeDots(0)[0]).toBeCloseTo(1.23, 5)
    expect(shadeDots(22.5)[0]).toBeCloseTo(1.26, 5)
    expect(shadeDots(360 + 22.5)[0]).toBeCloseTo(1.26, 5)
  })

  it('nearestNormalIndex returns each table normal for itself and the first of ties', () => {
    for (let i = 0; i < NUM_VERTEX_NORMALS; i++) {
      expect(nearestNormalIndex(ANORMS[i * 3]!, ANORMS[i * 3 + 1]!, ANORMS[i * 3 + 2]!)).toBe(i)
    }
    expect(nearestNormalIndex(0, 0, 10)).toBe(5)
    expect(nearestNormalIndex(0, 0, 0)).toBe(0)
  })
})
