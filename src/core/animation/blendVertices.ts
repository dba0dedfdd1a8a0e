import { LITTLE_ENDIAN_HOST } from '../bytes.js'
import { FRAME_HEADER_SIZE } from '../format/spec.js'
import { SLOT, blendFour, blendPair, blendPairNormals, blendPairNormalsOverHeld, blendPairOverHeld } from './blendKernels.js'
import type { MD2Pose } from './pose.js'
import type { MD2ModelData } from '../format/types.js'

export { ANORMS_256_YUP, quakeToYUp } from './yUpAxes.js'

/**
 * The CPU path's dispatch: which kernel writes a pose, with what coefficients. The loops themselves are
 * generated (blendKernels.ts, from scripts/generate-kernels.ts): each is its own small function that
 * only ever sees one kind of input, so the optimizing compiler takes it whole and never has to
 * deoptimize it when another path runs (a deoptimized kernel can get stuck re-entering optimized code
 * mid-loop, boxing numbers on every call).
 *
 * Every kernel dequantizes while blending, with each frame's scales and weight folded into one multiply
 * per component, reads one 32-bit word (x, y, z, normal index) per vertex per frame, writes positions
 * and what rides along in the same pass, Y-up, and touches each output float once.
 */

/** What the kernels read of a model: its frame transforms and frame bytes. */
export type MD2BlendSource = Pick<MD2ModelData, 'frameTransforms' | 'frameData' | 'frameStride'>

/**
 * A blend of keyframes `from` → `to` at `t` (an `MD2Pose` is one). The factor is read from a field:
 * V8 boxes a fractional number passed by value to a call it does not inline, while a field of a
 * long-lived object is updated in place, so per-frame callers keeping one object allocate nothing.
 */
export type KeyframeBlend = Pick<MD2Pose, 'from' | 'to' | 't'>

/**
 * Where a kernel writes: for each output vertex `i` (reading MD2 vertex `xyzIndex[i]`), 3 floats in
 * each array given. Per-frame callers keep one and update its fields.
 */
export interface BlendTarget {
  xyzIndex: Uint16Array | Uint32Array
  positions: Float32Array
  /** Normals (the lit kernels of `blendVerticesLit.ts` write light instead). */
  normals?: Float32Array
  /**
   * Quake II's per-vertex light, for the lit kernels (`blendVerticesLit.ts`) and `blendPoseInto`: `colors`
   * receives `lightTable` (256 × 3 colours by normal index, see `quake2LightTable`) at the normal index of
   * the frame blended towards. The kernels here ignore them.
   */
  colors?: Float32Array
  lightTable?: Float32Array
  /**
   * Receives the box of the positions written (min x, y, z then max x, y, z), exactly as stored: by the
   * kernels of `blendVerticesBounded.ts` and `blendPoseInto` (the ones here leave it alone).
   */
  bounds?: Float64Array
}

/** A crossfade's target: the outgoing pose, blended once when the fade began (as `blendVerticesYUp` writes it). */
export interface HeldPoseTarget extends BlendTarget {
  heldPositions: Float32Array
  /** Needed to write normals. */
  heldNormals?: Float32Array
}

/**
 * The kernel for a blend: writes the blend of keyframes `blend.from` and `blend.to` of `model` at
 * `blend.t` into `target`, Y-up. Reads `model.frameData` and `model.frameTransforms` only (never
 * `model.frames`); allocates nothing (after the first call on a model's frames). Frame indices must be
 * frames of the model: they are not checked.
 */
export function blendVerticesYUp(model: MD2BlendSource, blend: Readonly<KeyframeBlend>, target: Readonly<BlendTarget>): void {
  const source = weighPair(model, blend)
  const { xyzIndex, positions, normals } = target
  const k = coefficients
  const words = source.words
  if (normals !== undefined) blendPairNormals(words, offsets, k, xyzIndex, positions, normals)
  else blendPair(words, offsets, k, xyzIndex, positions)
}

/**
 * The kernel for a crossfade: writes `lerp(outgoing, incoming, 1 − fadeWeight)` of an `MD2Pose` (four
 * keyframes) in one pass. Frame indices must be valid (not checked). With `fadeWeight` 0 use
 * `blendVerticesYUp`, which reads two frames instead of four. Light is the incoming blend's, as
 * without a fade.
 */
export function blendPoseYUp(model: MD2BlendSource, pose: Readonly<MD2Pose>, target: Readonly<BlendTarget>): void {
  const source = weighFour(model, pose)
  const { xyzIndex, positions, normals } = target
  blendFour(source.words, offsets, coefficients, xyzIndex, positions, normals)
}

/**
 * A crossfade whose outgoing pose was blended once, when the fade began, into `target.heldPositions`
 * (and `heldNormals`): each frame reads two keyframes and the held pose instead of four keyframes.
 * `pose.t` is the incoming blend, `pose.fadeWeight` the outgoing weight; the fade's other fields are
 * the held pose's business. Normals are written when both `normals` and `heldNormals` are given.
 */
export function blendOverHeldPose(model: MD2BlendSource, pose: Readonly<MD2Pose>, target: Readonly<HeldPoseTarget>): void {
  const source = weighHeld(model, pose)
  const { xyzIndex, positions, normals, heldPositions, heldNormals } = target
  const words = source.words
  const k = coefficients
  if (normals === undefined || heldNormals === undefined) blendPairOverHeld(words, offsets, k, xyzIndex, positions, heldPositions)
  else blendPairNormalsOverHeld(words, offsets, k, xyzIndex, positions, normals, heldPositions, heldNormals)
}

/**
 * A model's vertex words: `words[first + f × stride + v]` is vertex `v` of frame `f`, as the file
 * stores it (x, y, z, normal index from the low byte up).
 */
export interface FrameWords {
  words: Uint32Array
  first: number
  stride: number
  /** The byte stride these were read with. */
  frameStride: number
}

/** Per frame bytes (shared by every model object viewing them), their words, made on first use. */
const frameWords = new WeakMap<Uint8Array, FrameWords>()

function frameWordsOf(model: MD2BlendSource): FrameWords {
  let words = frameWords.get(model.frameData)
  if (words === undefined || words.frameStride !== model.frameStride) {
    words = readFrameWords(model.frameData, model.frameStride)
    frameWords.set(model.frameData, words)
  }
  return words
}

/**
 * A view on the frames when every vertex is 4-byte aligned on a little-endian host, as in every
 * well-formed file parsed from offset 0. Otherwise (a file read from an odd offset, a padded frame
 * size, a big-endian host) the vertices are copied into words once, no larger than the frames: the
 * kernels then read words either way, and write the same floats.
 */
function readFrameWords(data: Uint8Array, frameStride: number): FrameWords {
  if (LITTLE_ENDIAN_HOST && ((data.byteOffset | frameStride) & 3) === 0) {
    const words = new Uint32Array(data.buffer, data.byteOffset, data.byteLength >>> 2)
    return { words, first: FRAME_HEADER_SIZE >>> 2, stride: frameStride >>> 2, frameStride }
  }
  const vertices = (frameStride - FRAME_HEADER_SIZE) >>> 2
  const frames = Math.floor(data.length / frameStride)
  const words = new Uint32Array(frames * vertices)
  for (let f = 0, w = 0; f < frames; f++) {
    for (let at = f * frameStride + FRAME_HEADER_SIZE, end = at + vertices * 4; at < end; at += 4) {
      words[w++] = (data[at]! | (data[at + 1]! << 8) | (data[at + 2]! << 16) | (data[at + 3]! << 24)) >>> 0
    }
  }
  return { words, first: 0, stride: vertices, frameStride }
}

/** The coefficients the kernels read (`SLOT`), set for each call. */
export const coefficients = new Float64Array(SLOT.COEFFICIENT_COUNT)
/** Where each frame's vertices start in its words. */
export const offsets = new Int32Array(4)
/** The frames being blended. */
const frames = new Int32Array(4)

/** Sets the coefficients and offsets for a blend of `blend.from` → `blend.to`; returns the words to read. */
export function weighPair(model: MD2BlendSource, blend: Readonly<KeyframeBlend>): FrameWords {
  frames[0] = blend.from
  frames[1] = blend.to
  coefficients[SLOT.WEIGHT] = 1 - blend.t
  coefficients[SLOT.WEIGHT + 1] = blend.t
  return weigh(model, 2)
}

/** `weighPair` for the incoming blend of a crossfade over a held pose, each frame also weighted by `1 − fadeWeight`. */
export function weighHeld(model: MD2BlendSource, pose: Readonly<MD2Pose>): FrameWords {
  const keep = 1 - pose.fadeWeight
  frames[0] = pose.from
  frames[1] = pose.to
  coefficients[SLOT.WEIGHT] = keep * (1 - pose.t)
  coefficients[SLOT.WEIGHT + 1] = keep * pose.t
  coefficients[SLOT.HELD_WEIGHT] = pose.fadeWeight
  return weigh(model, 2)
}

/** The coefficients and offsets of a crossfade's four frames: incoming from, to, then outgoing fadeFrom, fadeTo. */
export function weighFour(model: MD2BlendSource, pose: Readonly<MD2Pose>): FrameWords {
  const keep = 1 - pose.fadeWeight
  frames[0] = pose.from
  frames[1] = pose.to
  frames[2] = pose.fadeFrom
  frames[3] = pose.fadeTo
  coefficients[SLOT.WEIGHT] = keep * (1 - pose.t)
  coefficients[SLOT.WEIGHT + 1] = keep * pose.t
  coefficients[SLOT.WEIGHT + 2] = pose.fadeWeight * (1 - pose.fadeT)
  coefficients[SLOT.WEIGHT + 3] = pose.fadeWeight * pose.fadeT
  return weigh(model, 4)
}

/** Each of the first `count` frames' scales times its weight, their weighted translates summed, and their offsets. */
function weigh(model: MD2BlendSource, count: number): FrameWords {
  const source = frameWordsOf(model)
  const m = model.frameTransforms
  const k = coefficients
  for (let f = 0; f < count; f++) {
    const frame = frames[f]!
    const at = frame * 6
    const weight = k[SLOT.WEIGHT + f]!
    k[f * 3] = m[at]! * weight
    k[f * 3 + 1] = m[at + 1]! * weight
    k[f * 3 + 2] = m[at + 2]! * weight
    for (let c = 0; c < 3; c++) {
      const translate = m[at + 3 + c]! * weight
      k[SLOT.TRANSLATE + c] = f === 0 ? translate : k[SLOT.TRANSLATE + c]! + translate
    }
    offsets[f] = source.first + frame * source.stride
  }
  return source
}
