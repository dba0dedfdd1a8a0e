import { Vector4, type Material, type Texture } from 'three'
import type { CrowdAtlasDecode, CrowdTagDecode } from '../../materials/gpuDecodeGLSL.js'

/** Each crowd's, and each of its layers', state, by the object drawn (where the TSL decode finds it). */
export const crowdShaderStates = new WeakMap<object, CrowdShaderState>()

/*
 * The values written every frame have classes of their own. V8 keeps a field that only ever held numbers as a
 * number stored in place, and boxes each fractional number stored in one that held anything else (an allocation
 * per value per frame): the uniforms holding vectors and textures share one hidden class with every `{ value }`
 * literal, and any code in the page may have set a three.js `Vector4`'s component to something else. Numbers
 * passed to a call V8 leaves out of line are boxed too: the planes are written field by field.
 */

/** A uniform holding a number, a fraction from the start. */
class NumberUniform {
  value = 0.5
  constructor(value: number) {
    this.value = value
  }
}

/** A view plane (normal, constant) in the crowd's space: a `Vector4` to three.js and TSL. */
class ViewPlane extends Vector4 {}

/**
 * What a crowd's shaders read besides its rows, the same for every instance, shared by all its materials
 * (its own, depth, distance, shell and shadow): the crowd's time (seconds since its epoch, as the rows'
 * times count), the model's frames per block of texture rows, the view to cull against (six planes in
 * the crowd's space and the model's all-frames sphere), or none, and Quake II light's glow pulse. Kept as GLSL uniforms; the TSL decode
 * reads the same values.
 */
export class CrowdShaderState {
  readonly uniforms: {
    md2Time: { value: number }
    md2Rows: { value: number }
    md2Cull: { value: number }
    md2Sphere: { value: Vector4 }
    md2Planes: { value: Vector4[] }
    /** Quake II light's glow pulse now (RF_GLOW: added to each channel of the rows' shadelight), or 0. */
    md2Glow: { value: number }
    /** The poses worked out on the CPU this frame (`PoseAtlas`), once there are any. */
    md2PoseAtlas: { value: Texture | null }
  }

  /** Set while the crowd follows a leader's tag placed by the shader (`CrowdLink`): what its decodes read for it. */
  tag?: CrowdTagDecode

  constructor(rows: number) {
    this.uniforms = {
      md2Time: new NumberUniform(0),
      md2Rows: { value: rows },
      md2Cull: { value: 0 },
      md2Sphere: { value: new Vector4() },
      md2Planes: { value: Array.from({ length: 6 }, () => new ViewPlane(0.5, 0.5, 0.5, 0.5)) },
      md2Glow: new NumberUniform(0),
      md2PoseAtlas: { value: null },
    }
  }

  /** Set while the GLSL decode reads the poses from the atlas (`md2PoseAtlas`), not the keyframes: its programs have that path alone. */
  atlas: CrowdAtlasDecode | undefined

  /** The GLSL materials decoding by this state (`decodeInGLSL`), whose programs change with `atlas`. */
  readonly materials: Material[] = []

  /** Reads the poses from an atlas (its decode) or not: the materials are given their other program on a change. */
  readFromAtlas(atlas: CrowdAtlasDecode | undefined): void {
    if (atlas === this.atlas) return
    this.atlas = atlas
    for (const material of this.materials) material.needsUpdate = true
  }

  /** Culls against `planes` (`writeFrustumPlanes`' 24 floats, in the crowd's space), or nothing (`undefined`). */
  cullBy(planes: Float32Array | undefined): void {
    this.uniforms.md2Cull.value = planes ? 1 : 0
    if (!planes) return
    const vectors = this.uniforms.md2Planes.value
    for (let p = 0; p < 6; p++) {
      const plane = vectors[p]!
      plane.x = planes[p * 4]!
      plane.y = planes[p * 4 + 1]!
      plane.z = planes[p * 4 + 2]!
      plane.w = planes[p * 4 + 3]!
    }
  }
}
