import { Vector4 } from 'three'

/** Each crowd's, and each of its layers', state, by the object drawn (where the TSL decode finds it). */
export const crowdShaderStates = new WeakMap<object, CrowdShaderState>()

/**
 * What a crowd's shaders read besides its rows, the same for every instance, shared by all its materials
 * (its own, depth, distance, shell and shadow): the crowd's time (seconds since its epoch, as the rows'
 * times count), the model's frames per block of texture rows, and the view to cull against (six planes in
 * the crowd's space and the model's all-frames sphere), or none. Kept as GLSL uniforms; the TSL decode
 * reads the same values.
 */
export class CrowdShaderState {
  readonly uniforms: {
    md2Time: { value: number }
    md2Rows: { value: number }
    md2Cull: { value: number }
    md2Sphere: { value: Vector4 }
    md2Planes: { value: Vector4[] }
  }

  constructor(rows: number) {
    this.uniforms = {
      md2Time: { value: 0 },
      md2Rows: { value: rows },
      md2Cull: { value: 0 },
      md2Sphere: { value: new Vector4() },
      md2Planes: { value: Array.from({ length: 6 }, () => new Vector4()) },
    }
  }

  /** Culls against `planes` (`writeFrustumPlanes`' 24 floats, in the crowd's space), or nothing (`undefined`). */
  cullBy(planes: Float32Array | undefined): void {
    this.uniforms.md2Cull.value = planes ? 1 : 0
    if (!planes) return
    const vectors = this.uniforms.md2Planes.value
    for (let p = 0; p < 6; p++) vectors[p]!.set(planes[p * 4]!, planes[p * 4 + 1]!, planes[p * 4 + 2]!, planes[p * 4 + 3]!)
  }
}
