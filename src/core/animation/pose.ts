import type { MD2ModelData } from '../format/types.js'
import { warnOnce } from '../warnOnce.js'

/**
 * What one instance shows at one moment: a blend of two keyframes, optionally crossfading from an
 * outgoing blend of two others. The animation controller writes it; the CPU kernel, synced models,
 * tags and the GPU path read it. A plain object updated in place (nothing allocated per frame).
 *
 * Shown position = lerp(outgoing, incoming, 1 − fadeWeight), where incoming = lerp(frame `from`,
 * frame `to`, `t`) and outgoing = lerp(frame `fadeFrom`, frame `fadeTo`, `fadeT`). With
 * `fadeWeight` 0 the fade fields are ignored. Frame indices are integers in [0, numFrames).
 */
export interface MD2Pose {
  /** The keyframe being left. */
  from: number
  /** The keyframe being approached (Quake II's `frame`; its normals light the model). */
  to: number
  /** Blend from `from` to `to`, in [0, 1]. */
  t: number
  /** The outgoing pose of a crossfade, held where the fade began. */
  fadeFrom: number
  fadeTo: number
  fadeT: number
  /** Weight of the outgoing pose, 1 when a fade starts, falling to 0 when it ends; 0 = no fade. */
  fadeWeight: number
}

export function createPose(frame = 0): MD2Pose {
  return { from: frame, to: frame, t: 0, fadeFrom: frame, fadeTo: frame, fadeT: 0, fadeWeight: 0 }
}

/**
 * The frame a pose shows, fractional between neighbouring keyframes (40.25: a quarter of the way from 40
 * to 41); across a loop's wrap or a jump to another animation, the frame being left.
 */
export function poseFrame(pose: Readonly<MD2Pose>): number {
  const { from, to, t } = pose
  return to === from + 1 ? from + t : to === from - 1 ? from - t : from
}

export function copyPose(target: MD2Pose, source: Readonly<MD2Pose>): MD2Pose {
  target.from = source.from
  target.to = source.to
  target.t = source.t
  target.fadeFrom = source.fadeFrom
  target.fadeTo = source.fadeTo
  target.fadeT = source.fadeT
  target.fadeWeight = source.fadeWeight
  return target
}

/** Whether two poses show the same thing (fade fields compared only while a fade is on). */
export function posesEqual(a: Readonly<MD2Pose>, b: Readonly<MD2Pose>): boolean {
  if (a.from !== b.from || a.to !== b.to || a.t !== b.t || a.fadeWeight !== b.fadeWeight) return false
  return a.fadeWeight === 0 || (a.fadeFrom === b.fadeFrom && a.fadeTo === b.fadeTo && a.fadeT === b.fadeT)
}

/** Models already warned about clamped frames (checked without building a message each frame). */
const clampWarned = new WeakSet<MD2ModelData>()

/**
 * Clamps `pose`'s frames to `model`'s: a synced model with fewer frames than its parent (on the CPU
 * path or a follower crowd) shows its last frame for the parent's extra ones, warned once per model.
 */
export function clampPoseFrames(pose: MD2Pose, model: MD2ModelData): MD2Pose {
  const last = model.header.numFrames - 1
  if (pose.from > last || pose.to > last || (pose.fadeWeight > 0 && (pose.fadeFrom > last || pose.fadeTo > last))) {
    if (!clampWarned.has(model)) {
      clampWarned.add(model)
      warnOnce(
        `${model.name}:clamped`,
        `${model.name ?? 'model'} has ${last + 1} frames, fewer than the model it follows; showing frame ${last} past them`,
      )
    }
    pose.from = Math.min(pose.from, last)
    pose.to = Math.min(pose.to, last)
    pose.fadeFrom = Math.min(pose.fadeFrom, last)
    pose.fadeTo = Math.min(pose.fadeTo, last)
  }
  return pose
}
