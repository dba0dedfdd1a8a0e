import { toBytes } from './bytes'
import type { MD2Pose } from './pose'
import { MD2Error } from './errors'

/** "JDP2": the first four bytes of a UFO: Alien Invasion tag file. */
const TAG_IDENT = 0x3250444a
const TAG_VERSION = 1
const HEADER_SIZE = 32
/** Each tag name takes 64 bytes, NUL-padded. */
const NAME_SIZE = 64
/** Each tag has, per frame, 12 little-endian floats (a 3 × 4 transform). */
const FLOATS_PER_TRANSFORM = 12

/**
 * A UFO:AI `.tag` file (the `JDP2` format beside a `body.md2`): named points (`tag_head`,
 * `tag_rweapon`…) with one 3 × 4 transform per tag per frame, in the MD2's own coordinates.
 */
export interface MD2Tags {
  /** The file name or URL, when given. */
  name?: string
  /** Tag names, in file order. */
  names: string[]
  numFrames: number
  /**
   * The transforms, tag-major: tag `i`'s frame `f` is the 12 floats from `(i × numFrames + f) × 12`,
   * as stored in the file.
   */
  transforms: Float32Array
}

function fail(
  code: 'BAD_MAGIC' | 'BAD_VERSION' | 'TRUNCATED' | 'OUT_OF_RANGE' | 'BAD_VALUE',
  message: string,
  section: string,
  offset: number,
  file?: string,
): never {
  throw new MD2Error(code, message, { section, offset, file })
}

/**
 * Reads a `JDP2` tag file strictly: header, counts, offsets and sizes checked against the real length
 * before anything is allocated, names NUL-terminated, every float finite; a coded `MD2Error` otherwise.
 */
export function parseMD2Tags(data: ArrayBuffer | Uint8Array, options: { name?: string } = {}): MD2Tags {
  const file = options.name
  const bytes = toBytes(data, file)
  if (bytes.length < HEADER_SIZE)
    fail('TRUNCATED', `file is ${bytes.length} bytes, the header alone needs ${HEADER_SIZE}`, 'header', 0, file)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const int = (offset: number) => view.getInt32(offset, true)
  if (view.getUint32(0, true) !== TAG_IDENT) fail('BAD_MAGIC', 'not a tag file (the first four bytes are not "JDP2")', 'header', 0, file)
  const version = int(4)
  if (version !== TAG_VERSION) fail('BAD_VERSION', `version ${version} is not ${TAG_VERSION}`, 'header', 4, file)
  const numTags = int(8)
  const numFrames = int(12)
  const ofsNames = int(16)
  const ofsTags = int(20)
  if (numTags < 0 || numFrames < 0) fail('OUT_OF_RANGE', `${numTags} tags × ${numFrames} frames is not a count`, 'header', 8, file)
  if (ofsNames < HEADER_SIZE || ofsNames > bytes.length)
    fail('OUT_OF_RANGE', `names at offset ${ofsNames} lie outside the file (${bytes.length} bytes)`, 'header', 16, file)
  if (ofsTags < HEADER_SIZE || ofsTags > bytes.length)
    fail('OUT_OF_RANGE', `transforms at offset ${ofsTags} lie outside the file (${bytes.length} bytes)`, 'header', 20, file)
  // Sizes in doubles: counts up to 2^31 multiply past 2^32 without wrapping.
  const namesEnd = ofsNames + numTags * NAME_SIZE
  if (namesEnd > bytes.length) {
    fail(
      'TRUNCATED',
      `${numTags} × ${NAME_SIZE}-byte names end at ${namesEnd}, past the end of the data (${bytes.length} bytes)`,
      'names',
      ofsNames,
      file,
    )
  }
  const transformsEnd = ofsTags + numTags * numFrames * FLOATS_PER_TRANSFORM * 4
  if (transformsEnd > bytes.length) {
    fail(
      'TRUNCATED',
      `${numTags} tags × ${numFrames} frames × 48 bytes end at ${transformsEnd}, past the end of the data (${bytes.length} bytes)`,
      'tags',
      ofsTags,
      file,
    )
  }
  const names: string[] = []
  for (let i = 0; i < numTags; i++) {
    const start = ofsNames + i * NAME_SIZE
    const end = bytes.indexOf(0, start)
    if (end < 0 || end >= start + NAME_SIZE)
      fail('OUT_OF_RANGE', `tag name ${i} has no NUL within its ${NAME_SIZE} bytes`, 'names', start, file)
    names.push(String.fromCharCode(...bytes.subarray(start, end)))
  }
  const count = numTags * numFrames * FLOATS_PER_TRANSFORM
  const transforms = new Float32Array(count)
  for (let i = 0; i < count; i++) {
    const value = view.getFloat32(ofsTags + i * 4, true)
    if (!Number.isFinite(value)) fail('BAD_VALUE', `transform value ${i} is ${value}`, 'tags', ofsTags + i * 4, file)
    transforms[i] = value
  }
  return { name: file, names, numFrames, transforms }
}

/** The index of the tag called `name` (compared exactly, as UFO:AI does), or -1. */
export function findTag(tags: MD2Tags, name: string): number {
  return tags.names.indexOf(name)
}

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
    const length = Math.hypot(m[o]!, m[o + 1]!, m[o + 2]!)
    if (length > 0) {
      m[o] = m[o]! / length
      m[o + 1] = m[o + 1]! / length
      m[o + 2] = m[o + 2]! / length
    }
  }
}
