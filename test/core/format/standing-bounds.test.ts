import { describe, expect, it, vi } from 'vitest'
import { decodeFrame } from '../../../src/core/format/decodeFrame'
import type { MD2ModelData } from '../../../src/core/format/types'
import { quakeToYUp } from '../../../src/core/animation/yUpAxes'
import { fitStanding, getStandingBounds } from '../../../src/core/format/standingBounds'
import { parseAsset } from '../../support/assets'

const ogro = parseAsset('quake2/ogro/tris.MD2', 'ogro')
const ratamahatta = parseAsset('quake2/ratamahatta/tris.md2', 'ratamahatta')
const railgun = parseAsset('quake2/ogro/w_railgun.MD2', 'w_railgun')

/** The Y-up box of `frame`'s vertices that the triangles use, decoded independently (decodeFrame, quakeToYUp). */
function boxOfFrame(model: MD2ModelData, frame: number) {
  const positions = decodeFrame(model, frame)
  const min = [Infinity, Infinity, Infinity]
  const max = [-Infinity, -Infinity, -Infinity]
  for (let i = 0; i < model.triangles.length; i += 6) {
    for (let k = 0; k < 3; k++) {
      const v = model.triangles[i + k]! * 3
      const p = quakeToYUp(positions[v]!, positions[v + 1]!, positions[v + 2]!)
      for (let c = 0; c < 3; c++) {
        min[c] = Math.min(min[c]!, p[c]!)
        max[c] = Math.max(max[c]!, p[c]!)
      }
    }
  }
  return { min, max }
}

describe('getStandingBounds', () => {
  it.each([
    ['ogro', ogro],
    ['ratamahatta', ratamahatta],
  ])("a Quake II player's (%s) is its first stand frame, about 56 units tall, feet near y = −24", (_, model) => {
    const bounds = getStandingBounds(model)
    expect(model.animations.find((a) => a.name === 'stand')?.start).toBe(0)
    expect(bounds.frame).toBe(0)
    const box = boxOfFrame(model, 0)
    for (let c = 0; c < 3; c++) {
      expect(bounds.min[c]).toBeCloseTo(box.min[c]!, 4)
      expect(bounds.max[c]).toBeCloseTo(box.max[c]!, 4)
    }
    expect(bounds.height).toBeCloseTo(box.max[1]! - box.min[1]!, 4)
    // Quake II's player box is 56 tall (−24 to 32); the models are made to fill about that.
    expect(bounds.height).toBeGreaterThan(48)
    expect(bounds.height).toBeLessThan(64)
    expect(bounds.min[1]).toBeGreaterThan(-28)
    expect(bounds.min[1]).toBeLessThan(-20)
  })

  it('is measured from the stand animation wherever it starts, and from frame 0 without one', () => {
    // The ogro with its frame names turned round: "stand" now starts at frame 100, and nothing is called "stand" in the other.
    const moved = { ...ogro, animations: ogro.animations.map((a) => (a.name === 'stand' ? { ...a, start: 100, end: 110 } : a)) }
    expect(getStandingBounds(moved).frame).toBe(100)
    const box = boxOfFrame(ogro, 100)
    expect(getStandingBounds(moved).min[1]).toBeCloseTo(box.min[1]!, 4)
    expect(getStandingBounds(moved).height).not.toBeCloseTo(getStandingBounds(ogro).height, 1)
    const unnamed = { ...ogro, animations: [] }
    expect(getStandingBounds(unnamed).frame).toBe(0)
    expect(getStandingBounds(unnamed).height).toBe(getStandingBounds(ogro).height)
  })

  it('is the same box every time (kept per model)', () => {
    expect(getStandingBounds(railgun)).toBe(getStandingBounds(railgun))
    expect(getStandingBounds(parseAsset('quake2/ogro/w_railgun.MD2'))).toEqual(getStandingBounds(railgun))
  })
})

describe('fitStanding', () => {
  it('scales to the height asked and lifts the feet to the origin', () => {
    const { min, height } = getStandingBounds(ogro)
    const fit = fitStanding(ogro, 1.8, 'feet')
    expect(fit.scale).toBeCloseTo(1.8 / height, 12)
    // The lowest point, scaled and lifted, is at 0; the highest at 1.8.
    expect(min[1] * fit.scale + fit.lift).toBeCloseTo(0, 12)
    expect(getStandingBounds(ogro).max[1] * fit.scale + fit.lift).toBeCloseTo(1.8, 12)
    expect(fitStanding(ogro, 1.8, 'quake2')).toEqual({ scale: fit.scale, lift: 0 })
    expect(fitStanding(ogro, undefined, 'feet')).toEqual({ scale: 1, lift: -min[1] })
    expect(fitStanding(ogro, undefined, undefined)).toEqual({ scale: 1, lift: 0 })
  })

  it.each([0, -2, Number.NaN, Infinity, '1.8' as unknown as number])('ignores height={%s}', (height) => {
    expect(fitStanding(ogro, height, 'quake2')).toEqual({ scale: 1, lift: 0 })
  })

  it('ignores a height for a model that is flat standing, warning once', () => {
    const flat = { ...ogro, name: 'flat', frameTransforms: ogro.frameTransforms.map((v, i) => (i % 6 === 2 ? 0 : v)) }
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    expect(getStandingBounds(flat).height).toBe(0)
    expect(fitStanding(flat, 2, 'feet').scale).toBe(1)
    fitStanding(flat, 2, 'feet')
    expect(warn).toHaveBeenCalledTimes(1)
    expect(String(warn.mock.calls[0]![0])).toMatch(/flat.*height=\{2\} ignored/)
    warn.mockRestore()
  })
})
