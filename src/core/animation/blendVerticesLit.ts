import { blendFourLit, blendPairLit } from './blendKernels.js'
import { coefficients, offsets, weighFour, weighPair, type BlendTarget, type MD2BlendSource } from './blendVertices.js'
import type { MD2Pose } from './pose.js'

/** A target the lit kernels write: positions and Quake II's per-vertex light (`colors` from `lightTable`). */
export type LitBlendTarget = BlendTarget & Required<Pick<BlendTarget, 'colors' | 'lightTable'>>

/**
 * The lit kernels' dispatch (Quake II lighting): a pose's positions and, instead of normals, each vertex's
 * `lightTable` colour at its normal index in the frame blended towards (a crossfade too, lit by the
 * incoming blend), in one pass. Its own module: only an app that lights a model the Quake II way loads it.
 * Frame indices must be frames of the model.
 */
export function blendPoseYUpLit(model: MD2BlendSource, pose: Readonly<MD2Pose>, target: Readonly<LitBlendTarget>): void {
  const { xyzIndex, positions, colors, lightTable } = target
  if (pose.fadeWeight > 0) {
    const source = weighFour(model, pose)
    blendFourLit(source.words, offsets, coefficients, xyzIndex, positions, colors, lightTable)
  } else {
    const source = weighPair(model, pose)
    blendPairLit(source.words, offsets, coefficients, xyzIndex, positions, colors, lightTable)
  }
}
