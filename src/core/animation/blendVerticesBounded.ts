import { blendPairNormalsOverHeldBounded } from './blendKernels.js'
import {
  blendOverHeldPose,
  coefficients,
  offsets,
  weighHeld,
  type BlendTarget,
  type HeldPoseTarget,
  type KeyframeBlend,
  type MD2BlendSource,
} from './blendVertices.js'
import type { MD2Pose } from './pose.js'
import { boundsFromCandidates, pairCandidates } from './poseBounds.js'

/**
 * The box of a pose, found with the pass that writes it (`WriteMD2PoseOptions.bounds`): the kernels the body
 * path uses for it, in their own module so that only an app asking for pose bounds loads them.
 */
export interface PoseBoxKernels {
  /** After a blend of a pair was written into `target.positions`: its box into `target.bounds`. */
  afterPair(model: MD2BlendSource, blend: Readonly<KeyframeBlend>, target: Readonly<BlendTarget>): void
  /** After any other pose was written (a four-keyframe crossfade): its box, by a walk. */
  afterPose(target: Readonly<BlendTarget>): void
  /** A crossfade over a held pose, written with its box in the same pass. */
  overHeld(model: MD2BlendSource, pose: Readonly<MD2Pose>, target: Readonly<HeldPoseTarget>): void
}

/**
 * Pose bounds: for a blend of two keyframes (`t` in [0, 1]) the box is read back at the frame pair's few
 * candidate vertices (poseBounds.ts) from what was written, not by another walk: every kernel writes each
 * coordinate by the same expression, so the box of any blend of a pair is reached at those vertices. A
 * crossfade over a held pose grows its box in the kernel's own loop.
 */
export const poseBox: PoseBoxKernels = {
  afterPair(model, blend, target) {
    const { bounds, positions, xyzIndex } = target
    if (bounds === undefined) return
    const t = blend.t
    if (t >= 0 && t <= 1) boundsFromCandidates(positions, pairCandidates(model, blend.from, blend.to, xyzIndex), bounds)
    else boundsOf(positions, bounds)
  },
  afterPose(target) {
    if (target.bounds !== undefined) boundsOf(target.positions, target.bounds)
  },
  overHeld(model, pose, target) {
    const { xyzIndex, positions, normals, heldPositions, heldNormals, bounds } = target
    if (bounds === undefined || normals === undefined || heldNormals === undefined) {
      blendOverHeldPose(model, pose, target)
      if (bounds !== undefined) boundsOf(positions, bounds)
      return
    }
    const source = weighHeld(model, pose)
    blendPairNormalsOverHeldBounded(source.words, offsets, coefficients, xyzIndex, positions, normals, heldPositions, heldNormals, bounds)
  },
}

/** Min x, y, z then max x, y, z of 3-float positions, into `out` (a walk, for the paths without candidates). */
export function boundsOf(positions: Float32Array, out: Float64Array): void {
  out.fill(Infinity, 0, 3).fill(-Infinity, 3, 6)
  for (let o = 0; o < positions.length; o += 3) {
    for (let c = 0; c < 3; c++) {
      out[c] = Math.min(out[c]!, positions[o + c]!)
      out[c + 3] = Math.max(out[c + 3]!, positions[o + c]!)
    }
  }
}
