/**
 * Quake II light on a crowd's stored rows: each instance's shadelight (after minlight and fullbright) is written
 * into its row when it is set, the glow's pulse is a uniform, and the light table's row is the shader's, from the
 * instance's world yaw; so a crowd lit so is not posed on the CPU every frame. The yaw's step is `shadeDotsRow`'s,
 * nudged so that a yaw read back from a matrix lands on the step its angle names. (The pictures are compared with
 * `<MD2Model>`'s in test/browser/crowd.test.tsx.)
 */
import { Object3D, Vector3 } from 'three'
import { describe, expect, it } from 'vitest'
import { effectiveShadelight, quake2LightTable, shadeDotsRow } from '../../src/core/lighting/quake2Light'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { crowdShaderStates } from '../../src/three/crowd/gpu/CrowdShaderState'
import { INSTANCE_STRIDE, LIGHT } from '../../src/three/crowd/gpu/instanceRows'
import { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import { Quake2Lighting } from '../../src/three/materials/Quake2Lighting'
import { readAsset } from '../support/assets'
import { crowdCamera } from '../support/cameras'

const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2').slice(), { name: 'ogro/tris.MD2' })
const camera = crowdCamera()

const written = (crowd: MD2Crowd) => (crowd as unknown as { rows: { storedWritten: number } }).rows.storedWritten
/** Instance (or drawn slot) `k`'s light in the crowd's rows. */
function lightOf(crowd: MD2Crowd, k: number): number[] {
  const data = (crowd.geometry.getAttribute('md2Light') as unknown as { data: { array: Float32Array } }).data.array
  return [...data.slice(k * INSTANCE_STRIDE + LIGHT, k * INSTANCE_STRIDE + LIGHT + 3)]
}
const glowOf = (crowd: MD2Crowd) => crowdShaderStates.get(crowd)!.uniforms.md2Glow.value
const f32 = (values: number[]) => [...Float32Array.from(values)]

function lit(options: Partial<ConstructorParameters<typeof MD2Crowd>[1]>): MD2Crowd {
  const crowd = new MD2Crowd(ogro, { limit: 4, lighting: 'quake2', ...options })
  for (let i = 0; i < 4; i++) {
    crowd.setTransform(i, { position: new Vector3(i * 40 - 60, -10, 0), rotation: i * 0.9 })
    crowd.play(i, i === 1 ? 'stand' : 'run')
  }
  return crowd
}

describe('a crowd lit as Quake II lit it', () => {
  it("is drawn from stored rows: its shadelight written into an instance's row when set, none on a still frame", () => {
    const crowd = lit({ shadelight: [0.5, 0.4, 0.3], minlight: true, glow: true })
    crowd.update(0.1, camera)
    expect(crowd.drawnFrom).toBe('stored')
    expect(written(crowd)).toBe(4)
    for (let i = 0; i < 4; i++) expect(lightOf(crowd, i)).toEqual(f32([0.5, 0.4, 0.3]))
    // Time passing writes no row: the glow pulses in a uniform, the poses and the light table's row are the shader's.
    let seconds = 0.1
    for (let f = 0; f < 5; f++) {
      crowd.update(1 / 60, camera)
      seconds += 1 / 60
      expect(written(crowd)).toBe(0)
      expect(glowOf(crowd)).toBeCloseTo(0.1 * Math.sin(7 * seconds), 12)
    }
    // One instance's light: its row alone, raised by minlight as effectiveShadelight raises it.
    crowd.setShadelight(2, [0.05, 0.02, 0.08])
    crowd.update(1 / 60, camera)
    expect(written(crowd)).toBe(1)
    expect(lightOf(crowd, 2)).toEqual(f32([0.1, 0.1, 0.1]))
    expect(lightOf(crowd, 3)).toEqual(f32([0.5, 0.4, 0.3]))
    // The crowd's: every row again; fullbright is 1, and without glow the pulse is 0.
    crowd.setLighting({ shadelight: 0.2, fullbright: true })
    crowd.update(1 / 60, camera)
    expect(written(crowd)).toBe(4)
    for (let i = 0; i < 4; i++) expect(lightOf(crowd, i)).toEqual([1, 1, 1])
    expect(glowOf(crowd)).toBe(0)
    crowd.update(1 / 60, camera)
    expect(written(crowd)).toBe(0)
    crowd.dispose()
  })

  it('writes the same light into posed rows (a crowd blending its poses by compute): the shader reads both alike', () => {
    const stored = lit({ shadelight: [0.9, 0.6, 0.2], glow: true, shell: 'blue' })
    const posed = lit({ shadelight: [0.9, 0.6, 0.2], glow: true, decode: 'compute' })
    stored.setShadelight(1, 1.7)
    posed.setShadelight(1, 1.7)
    stored.update(0.25)
    posed.update(0.25)
    expect([stored.drawnFrom, posed.drawnFrom]).toEqual(['stored', 'posed'])
    expect(posed.count).toBe(4)
    for (let k = 0; k < 4; k++) expect(lightOf(posed, k)).toEqual(lightOf(stored, posed.instanceAt(k)))
    expect(glowOf(posed)).toBe(glowOf(stored))
    // What the CPU path would light with, less the pulse the shader adds.
    const out = new Float64Array(3)
    expect(lightOf(stored, 1)).toEqual(f32([...effectiveShadelight([1.7, 1.7, 1.7], {}, { seconds: 0 }, out)]))
    stored.dispose()
    posed.dispose()
  })
})

describe("the light table's row of a yaw read back from a matrix", () => {
  // Every multiple of 22.5° from −360° to 360°: read back from a matrix (atan2 of its +Z), each lands a rounding error
  // to one side of its step, in doubles and otherwise in singles (as a crowd's matrices and a GPU's atan have them).
  const steps = Array.from({ length: 33 }, (_, n) => n - 16)
  const object = new Object3D()
  const yawOf = (elements: ArrayLike<number>) => (Math.atan2(elements[8]!, elements[10]!) * 180) / Math.PI
  /** Quake II's row for the exact angle of `step` × 22.5°, taken into (−180°, 180°] as the matrix gives it back. */
  const exact = (step: number) => {
    const wrapped = step > 8 ? step - 16 : step <= -8 ? step + 16 : step
    return wrapped & 15
  }

  it('is the row of the angle it names, from doubles and from singles', () => {
    for (const step of steps) {
      object.rotation.set(0, (step * Math.PI) / 8, 0)
      object.updateMatrixWorld()
      const elements = object.matrixWorld.elements
      expect(shadeDotsRow(yawOf(elements)), `${step} × 22.5°`).toBe(exact(step))
      expect(shadeDotsRow(yawOf(Float32Array.from(elements))), `${step} × 22.5°, singles`).toBe(exact(step))
    }
    // Without the nudge, Quake II's truncation of these read-back yaws misses some (90° would be lit as 67.5°).
    const truncated = steps.filter((step) => {
      object.rotation.set(0, (step * Math.PI) / 8, 0)
      object.updateMatrixWorld()
      return (Math.trunc((yawOf(Float32Array.from(object.matrixWorld.elements)) * 16) / 360) & 15) !== exact(step)
    })
    expect(truncated.length).toBeGreaterThan(0)
  })

  it("is the one <MD2Model>'s Quake II light builds its table from", () => {
    const lighting = new Quake2Lighting()
    lighting.set({ shadelight: 1 })
    const expected = new Float32Array(256 * 3)
    for (const step of steps) {
      object.rotation.set(0, (step * Math.PI) / 8, 0)
      object.updateMatrixWorld()
      lighting.update(object, { seconds: 0 })
      expect([...lighting.table], `${step} × 22.5°`).toEqual([...quake2LightTable(exact(step), [1, 1, 1], true, expected)])
    }
  })
})
