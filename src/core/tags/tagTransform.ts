import type { MD2Pose } from '../animation/pose.js'
import { MD2Error } from '../MD2Error.js'
import { FLOATS_PER_TRANSFORM, type MD2Tags } from './parseMD2Tags.js'

/** What `tagTransform` reads of a pose: the frame pair, interpolation and crossfade. */
export type TagPose = Pick<MD2Pose, 'from' | 'to' | 't' | 'fadeFrom' | 'fadeTo' | 'fadeT' | 'fadeWeight'>

/**
 * Tag `index`'s transform for a pose, written into `out` (12 floats) and returned. The layout is
 * the file's, established from the data (a head placed with it sits on the soldier's neck and points
 * along the spine in every frame, as the renderer's `R_ComputeGLMatrixFromTag` reads it): the
 * images of the attached model's x, y and z axes, then the origin, all in the body's Quake II
 * coordinates, so a point `p` of the attached model lands at
 * `origin + p.x · xAxis + p.y · yAxis + p.z · zAxis`.
 *
 * Between two frames the 12 floats are lerped and each axis is renormalised, as UFO:AI interpolates;
 * during a crossfade the outgoing pose's transform is blended in by its weight the same way. Frames
 * past the tag file's last clamp to it (the engine warns when the counts differ).
 */
export function tagTransform(tags: MD2Tags, index: number, pose: TagPose, out: Float32Array = new Float32Array(12)): Float32Array {
  if (!Number.isInteger(index) || index < 0 || index >= tags.names.length)
    throw new MD2Error('BAD_INDEX', `tag ${index} does not exist (the file has ${tags.names.length})`, { section: 'tags' })
  if (tags.numFrames === 0) throw new MD2Error('BAD_INDEX', 'the tag file has no frames', { section: 'tags' })
  lerpTag(tags, index, pose.from, pose.to, pose.t, out)
  if (pose.fadeWeight > 0) {
    const w = Math.min(pose.fadeWeight, 1)
    lerpTag(tags, index, pose.fadeFrom, pose.fadeTo, pose.fadeT, scratch)
    for (let i = 0; i < 12; i++) out[i] = out[i]! + (scratch[i]! - out[i]!) * w
    normaliseAxes(out)
  }
  return out
}

const scratch = new Float32Array(12)

function lerpTag(tags: MD2Tags, index: number, from: number, to: number, t: number, out: Float32Array): void {
  const last = tags.numFrames - 1
  const base = index * tags.numFrames
  const m = tags.transforms
  const a = (base + clampFrame(from, last)) * FLOATS_PER_TRANSFORM
  const b = (base + clampFrame(to, last)) * FLOATS_PER_TRANSFORM
  const s = t > 0 && t <= 1 ? t : 0
  for (let i = 0; i < 12; i++) out[i] = m[a + i]! + (m[b + i]! - m[a + i]!) * s
  if (s > 0 && a !== b) normaliseAxes(out)
}

function clampFrame(frame: number, last: number): number {
  return frame >= 0 && frame <= last ? Math.floor(frame) : frame > last ? last : 0
}

function normaliseAxes(m: Float32Array): void {
  for (let o = 0; o < 9; o += 3) {
    // Not Math.hypot: V8 allocates in it, and attachments call this every frame.
    const length = Math.sqrt(m[o]! * m[o]! + m[o + 1]! * m[o + 1]! + m[o + 2]! * m[o + 2]!)
    if (length > 0) {
      m[o] = m[o]! / length
      m[o + 1] = m[o + 1]! / length
      m[o + 2] = m[o + 2]! / length
    }
  }
}
