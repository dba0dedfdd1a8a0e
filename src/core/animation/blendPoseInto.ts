import { SLOT, blendFourInto, blendPairInto } from './blendKernels.js'
import { coefficients, offsets, weighFour, weighPair, type BlendTarget, type MD2BlendSource } from './blendVertices.js'
import type { MD2Pose } from './pose.js'

/**
 * The outputs of `blendPoseInto`: a blend's, and copies of the pose that Quake II draws with the body.
 * Each output array holds 3 floats per output vertex.
 */
export interface PoseOutputs extends BlendTarget {
  /** A copy pushed out along the normal of the frame blended towards by `shellOffset` units (Quake II's power shells). */
  shell?: Float32Array
  shellOffset?: number
  /**
   * Quake II's blob shadow (GL_DrawAliasShadow): each vertex moved across by the shade vector times its
   * height above the floor, then flattened onto the floor (1 unit above it). `shadowParameters`: the
   * normalised shade vector's Quake x and y, the model origin's height above the floor in model units, and
   * (in [3]) the yaw they were made for.
   */
  shadow?: Float32Array
  shadowParameters?: Float64Array
}

/**
 * The kernel for a pose with a power shell or a blob shadow: writes an `MD2Pose` (with or without a
 * crossfade) into every output given, in one pass. The body's floats are exactly those the other
 * kernels write for the same pose (the same arithmetic), and the shell is the body plus its offset.
 * Its own module, so that an app that never draws a shell or a shadow leaves it out.
 */
export function blendPoseInto(model: MD2BlendSource, pose: Readonly<MD2Pose>, out: Readonly<PoseOutputs>): void {
  const fading = pose.fadeWeight > 0
  const source = fading ? weighFour(model, pose) : weighPair(model, pose)
  const k = coefficients
  k[SLOT.SHELL_OFFSET] = out.shellOffset ?? 0
  // Copied only when given: a number read or undefined would be boxed (a new heap number per call).
  const shading = out.shadowParameters
  if (shading !== undefined) {
    k[SLOT.SHADE] = shading[0]!
    k[SLOT.SHADE + 1] = shading[1]!
    k[SLOT.SHADOW_HEIGHT] = shading[2]!
  }
  const { xyzIndex, positions, colors, lightTable, bounds, shell, shadow } = out
  // Light is written instead of normals, as by the other kernels.
  const lit = colors !== undefined && lightTable !== undefined
  const normals = lit ? undefined : out.normals
  const write = fading ? blendFourInto : blendPairInto
  write(source.words, offsets, k, xyzIndex, positions, normals, colors, lightTable, bounds, shell, shadow)
}
