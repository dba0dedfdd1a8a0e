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
