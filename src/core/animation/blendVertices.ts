import { LITTLE_ENDIAN_HOST } from '../bytes.js'
import { FRAME_HEADER_SIZE } from '../format/spec.js'
import { ANORMS_256 } from '../format/normals.js'
import { boundsFromCandidates, pairCandidates } from './poseBounds.js'
import type { MD2Pose } from './pose.js'
import type { MD2ModelData } from '../format/types.js'

/**
 * Quake II is Z-up (X forward, Y left); three.js and glTF are Y-up with +Z forward and +X left.
 * Y-up (X, Y, Z) = Quake (y, z, x): a cyclic permutation, so a rotation (determinant +1), never a
 * mirror, and the model faces +Z as glTF characters do.
 */
export function quakeToYUp(x: number, y: number, z: number): [number, number, number] {
  return [y, z, x]
}

/** The 256-entry normal table already turned to Y-up, so the per-frame loop only copies. */
export const ANORMS_256_YUP: Float32Array = (() => {
  const table = new Float32Array(256 * 3)
  for (let i = 0; i < 256 * 3; i += 3) {
    table[i] = ANORMS_256[i + 1]!
    table[i + 1] = ANORMS_256[i + 2]!
    table[i + 2] = ANORMS_256[i]!
  }
  return table
})()

/** One Uint32Array per file buffer, made on first use, so a frame's vertices can be read a word at a time. */
const wordViews = new WeakMap<ArrayBufferLike, Uint32Array>()

/**
 * The words of the buffer under `frameData` (byte `frameData.byteOffset + i` is in word
 * `(frameData.byteOffset + i) / 4`), or undefined when a frame's vertices would not be 4-byte aligned
 * or the host is big-endian. Allocates only the first time it sees a buffer.
 */
function wordsOf(frameData: Uint8Array, frameStride: number): Uint32Array | undefined {
  if (!LITTLE_ENDIAN_HOST || ((frameData.byteOffset | frameStride) & 3) !== 0) return undefined
  const buffer = frameData.buffer
  let words = wordViews.get(buffer)
  if (words === undefined) {
    words = new Uint32Array(buffer, 0, buffer.byteLength >>> 2)
    wordViews.set(buffer, words)
  }
  return words
}

/** What the kernel reads of a model: its frame transforms and frame bytes. */
export type MD2BlendSource = Pick<MD2ModelData, 'frameTransforms' | 'frameData' | 'frameStride'>

/** The blend factor, held in an object so the per-frame path passes no double by value. */
export interface BlendFactor {
  t: number
}

const scratchFactor: BlendFactor = { t: 0 }

/**
 * The per-frame kernel: for each output vertex `i` (reading MD2 vertex `xyzIndex[i]`), writes the
 * blend of keyframes `from` and `to` of `model` at `t` into `positions` (and `normals` if given),
 * Y-up. Reads `model.frameData` and `model.frameTransforms` only (never `model.frames`). Dequantizes
 * while blending with the scales and the blend factor folded into one multiply-add per component;
 * touches each output float once; allocates nothing (after the first call on a file's buffer).
 * `from` and `to` must be frame indices of the model (0 to `numFrames − 1`): they are not checked.
 *
 * Vertices are read one 32-bit word (x, y, z, normal index) per frame when the frames are 4-byte
 * aligned, as every well-formed file parsed from offset 0 is, and positions and normals are written
 * in the same pass: about 20% faster than byte reads in two passes (bench/RESULTS.md).
 */
export function blendVerticesYUp(
  model: MD2BlendSource,
  from: number,
  to: number,
  t: number,
  xyzIndex: Uint16Array | Uint32Array,
  positions: Float32Array,
  normals?: Float32Array,
): void {
  scratchFactor.t = t
  blendVerticesYUpBy(model, from, to, scratchFactor, xyzIndex, positions, normals)
}

/**
 * `blendVerticesYUp` with the factor read from `factor.t`. V8 boxes a fractional number passed by
 * value to a call it does not inline (16 bytes of garbage per call); a field of a long-lived object
 * is updated in place, so per-frame callers that keep their factor in one allocate nothing.
 * With `bounds`, also the box of the positions written (min x, y, z then max, Y-up), exactly as
 * stored, read at the frame pair's few candidate vertices (pose-bounds.ts) rather than by another walk;
 * the first blend of a pair finds its candidates (allocating their list, once).
 */
export function blendVerticesYUpBy(
  model: MD2BlendSource,
  from: number,
  to: number,
  factor: Readonly<BlendFactor>,
  xyzIndex: Uint16Array | Uint32Array,
  positions: Float32Array,
  normals?: Float32Array,
  colors?: VertexLight,
  bounds?: Float64Array,
): void {
  const t = factor.t
  const back = 1 - t
  const m = model.frameTransforms
  const fa = from * 6
  const fb = to * 6
  const k = coefficients
  k[AX] = m[fa]! * back
  k[AY] = m[fa + 1]! * back
  k[AZ] = m[fa + 2]! * back
  k[BX] = m[fb]! * t
  k[BY] = m[fb + 1]! * t
  k[BZ] = m[fb + 2]! * t
  k[CX] = m[fa + 3]! * back + m[fb + 3]! * t
  k[CY] = m[fa + 4]! * back + m[fb + 4]! * t
  k[CZ] = m[fa + 5]! * back + m[fb + 5]! * t
  k[BACK] = back
  k[T] = t
  const data = model.frameData
  const stride = model.frameStride
  // Byte offsets of the two frames' vertices in `data`.
  const va = from * stride + FRAME_HEADER_SIZE
  const vb = to * stride + FRAME_HEADER_SIZE
  const words = wordsOf(data, stride)
  // Each loop is its own small function that only ever sees one kind of input, so the optimizing
  // compiler takes it whole and never has to deoptimize it when another path runs (a deoptimized
  // kernel can get stuck re-entering optimized code mid-loop, boxing numbers on every call).
  if (words !== undefined) {
    const oa = (data.byteOffset + va) >>> 2
    const ob = (data.byteOffset + vb) >>> 2
    if (colors !== undefined) blendWordPositionsLit(words, oa, words, ob, xyzIndex, positions, colors.colors, colors.table)
    else if (normals === undefined) blendWordPositions(words, oa, words, ob, xyzIndex, positions)
    else blendWords(words, oa, words, ob, xyzIndex, positions, normals)
  } else {
    // Unaligned frames (a file read from an odd offset) or a big-endian host: byte by byte.
    blendBytePositions(data, va, vb, xyzIndex, positions)
    if (normals !== undefined) blendByteNormals(data, va, vb, xyzIndex, normals)
    if (colors !== undefined) lightBytes(data, vb, xyzIndex, colors)
  }
  if (bounds !== undefined) {
    // Every kernel above writes each coordinate by the same expression, so for t in [0, 1] the box is
    // reached at the pair's few candidate vertices (pose-bounds.ts), read back from what was written.
    if (t >= 0 && t <= 1) boundsFromCandidates(positions, pairCandidates(model, from, to, xyzIndex), bounds)
    else boundsOf(positions, bounds)
  }
}

/** Min x, y, z then max x, y, z of 3-float positions, into `out`. */
export function boundsOf(positions: Float32Array, out: Float64Array): void {
  out[0] = out[1] = out[2] = Infinity
  out[3] = out[4] = out[5] = -Infinity
  for (let o = 0; o < positions.length; o += 3) growBounds(out, positions[o]!, positions[o + 1]!, positions[o + 2]!)
}

function growBounds(bounds: Float64Array, x: number, y: number, z: number): void {
  if (x < bounds[0]!) bounds[0] = x
  if (x > bounds[3]!) bounds[3] = x
  if (y < bounds[1]!) bounds[1] = y
  if (y > bounds[4]!) bounds[4] = y
  if (z < bounds[2]!) bounds[2] = z
  if (z > bounds[5]!) bounds[5] = z
}

/**
 * Per-vertex light written with the positions (Quake II's lighting): `colors` receives, for each
 * output vertex, the 3 floats of `table` at the normal index of the frame blended towards.
 */
export interface VertexLight {
  colors: Float32Array
  /** 256 × 3 colours by normal index (see `quake2LightTable`). */
  table: Float32Array
}

function blendWordPositionsLit(
  wa: Uint32Array,
  oa: number,
  wb: Uint32Array,
  ob: number,
  xyzIndex: Uint16Array | Uint32Array,
  positions: Float32Array,
  colors: Float32Array,
  table: Float32Array,
): void {
  const k = coefficients
  const ax = k[AX]!,
    ay = k[AY]!,
    az = k[AZ]!,
    bx = k[BX]!,
    by = k[BY]!,
    bz = k[BZ]!,
    cx = k[CX]!,
    cy = k[CY]!,
    cz = k[CZ]!
  const count = xyzIndex.length
  for (let i = 0, o = 0; i < count; i++, o += 3) {
    const v = xyzIndex[i]!
    const qa = wa[oa + v]!
    const qb = wb[ob + v]!
    positions[o] = ((qa >>> 8) & 255) * ay + ((qb >>> 8) & 255) * by + cy
    positions[o + 1] = ((qa >>> 16) & 255) * az + ((qb >>> 16) & 255) * bz + cz
    positions[o + 2] = (qa & 255) * ax + (qb & 255) * bx + cx
    const n = (qb >>> 24) * 3
    colors[o] = table[n]!
    colors[o + 1] = table[n + 1]!
    colors[o + 2] = table[n + 2]!
  }
}

/** The byte path's light: the normal index of the frame at byte offset `to`. */
function lightBytes(data: Uint8Array, to: number, xyzIndex: Uint16Array | Uint32Array, light: VertexLight): void {
  const { colors, table } = light
  const count = xyzIndex.length
  for (let i = 0, o = 0; i < count; i++, o += 3) {
    const n = data[to + (xyzIndex[i]! << 2) + 3]! * 3
    colors[o] = table[n]!
    colors[o + 1] = table[n + 1]!
    colors[o + 2] = table[n + 2]!
  }
}

/**
 * The blend's coefficients, shared by the loops below: numbers in a Float64Array are read and
 * written unboxed, where passing nine fractional arguments would box each of them.
 */
const coefficients = new Float64Array(11)
const AX = 0,
  AY = 1,
  AZ = 2,
  BX = 3,
  BY = 4,
  BZ = 5,
  CX = 6,
  CY = 7,
  CZ = 8,
  BACK = 9,
  T = 10

function blendWordPositions(
  wa: Uint32Array,
  oa: number,
  wb: Uint32Array,
  ob: number,
  xyzIndex: Uint16Array | Uint32Array,
  positions: Float32Array,
): void {
  const k = coefficients
  const ax = k[AX]!,
    ay = k[AY]!,
    az = k[AZ]!,
    bx = k[BX]!,
    by = k[BY]!,
    bz = k[BZ]!,
    cx = k[CX]!,
    cy = k[CY]!,
    cz = k[CZ]!
  const count = xyzIndex.length
  for (let i = 0, o = 0; i < count; i++, o += 3) {
    const v = xyzIndex[i]!
    const qa = wa[oa + v]!
    const qb = wb[ob + v]!
    positions[o] = ((qa >>> 8) & 255) * ay + ((qb >>> 8) & 255) * by + cy
    positions[o + 1] = ((qa >>> 16) & 255) * az + ((qb >>> 16) & 255) * bz + cz
    positions[o + 2] = (qa & 255) * ax + (qb & 255) * bx + cx
  }
}

function blendWords(
  wa: Uint32Array,
  oa: number,
  wb: Uint32Array,
  ob: number,
  xyzIndex: Uint16Array | Uint32Array,
  positions: Float32Array,
  normals: Float32Array,
): void {
  const k = coefficients
  const ax = k[AX]!,
    ay = k[AY]!,
    az = k[AZ]!,
    bx = k[BX]!,
    by = k[BY]!,
    bz = k[BZ]!,
    cx = k[CX]!,
    cy = k[CY]!,
    cz = k[CZ]!
  const back = k[BACK]!,
    t = k[T]!
  const table = ANORMS_256_YUP
  const count = xyzIndex.length
  for (let i = 0, o = 0; i < count; i++, o += 3) {
    const v = xyzIndex[i]!
    const qa = wa[oa + v]!
    const qb = wb[ob + v]!
    positions[o] = ((qa >>> 8) & 255) * ay + ((qb >>> 8) & 255) * by + cy
    positions[o + 1] = ((qa >>> 16) & 255) * az + ((qb >>> 16) & 255) * bz + cz
    positions[o + 2] = (qa & 255) * ax + (qb & 255) * bx + cx
    const na = (qa >>> 24) * 3
    const nb = (qb >>> 24) * 3
    normals[o] = table[na]! * back + table[nb]! * t
    normals[o + 1] = table[na + 1]! * back + table[nb + 1]! * t
    normals[o + 2] = table[na + 2]! * back + table[nb + 2]! * t
  }
}

/**
 * Rounds a box found on the unrounded positions to floats, as the positions were when stored: rounding
 * never changes which value is least or greatest, so this is exactly the box of what is drawn.
 */
function roundBounds(bounds: Float64Array): void {
  for (let i = 0; i < 6; i++) bounds[i] = Math.fround(bounds[i]!)
}

/** `a` and `b`: byte offsets in `data` of the two frames' first vertex. */
function blendBytePositions(data: Uint8Array, a: number, b: number, xyzIndex: Uint16Array | Uint32Array, positions: Float32Array): void {
  const k = coefficients
  const ax = k[AX]!,
    ay = k[AY]!,
    az = k[AZ]!,
    bx = k[BX]!,
    by = k[BY]!,
    bz = k[BZ]!,
    cx = k[CX]!,
    cy = k[CY]!,
    cz = k[CZ]!
  const count = xyzIndex.length
  for (let i = 0, o = 0; i < count; i++, o += 3) {
    const v = xyzIndex[i]! << 2
    const va = a + v
    const vb = b + v
    positions[o] = data[va + 1]! * ay + data[vb + 1]! * by + cy
    positions[o + 1] = data[va + 2]! * az + data[vb + 2]! * bz + cz
    positions[o + 2] = data[va]! * ax + data[vb]! * bx + cx
  }
}

function blendByteNormals(data: Uint8Array, a: number, b: number, xyzIndex: Uint16Array | Uint32Array, normals: Float32Array): void {
  const k = coefficients
  const back = k[BACK]!,
    t = k[T]!
  const table = ANORMS_256_YUP
  const count = xyzIndex.length
  for (let i = 0, o = 0; i < count; i++, o += 3) {
    const v = xyzIndex[i]! << 2
    const na = data[a + v + 3]! * 3
    const nb = data[b + v + 3]! * 3
    normals[o] = table[na]! * back + table[nb]! * t
    normals[o + 1] = table[na + 1]! * back + table[nb + 1]! * t
    normals[o + 2] = table[na + 2]! * back + table[nb + 2]! * t
  }
}

/** Per-frame weights of a crossfade: incoming from/to, outgoing fadeFrom/fadeTo. */
const fadeWeights = new Float64Array(4)
/** Scale x, y, z of the four frames, each times its weight; then the weighted translate sum. */
const fadeCoefficients = new Float64Array(4 * 3 + 3)

/**
 * The kernel for a crossfade: writes `lerp(outgoing, incoming, 1 − fadeWeight)` of an `MD2Pose`
 * (four keyframes) in one pass, each frame's scale and weight folded into one multiply per
 * component, positions and normals together. Frame indices must be valid (not checked). With
 * `fadeWeight` 0 use `blendVerticesYUpBy`, which reads two frames instead of four.
 */
export function blendPoseYUp(
  model: MD2BlendSource,
  pose: Readonly<MD2Pose>,
  xyzIndex: Uint16Array | Uint32Array,
  positions: Float32Array,
  normals?: Float32Array,
  colors?: VertexLight,
): void {
  const w = fadeWeights
  const keep = 1 - pose.fadeWeight
  w[0] = keep * (1 - pose.t)
  w[1] = keep * pose.t
  w[2] = pose.fadeWeight * (1 - pose.fadeT)
  w[3] = pose.fadeWeight * pose.fadeT
  const frames = fadeFrames
  frames[0] = pose.from
  frames[1] = pose.to
  frames[2] = pose.fadeFrom
  frames[3] = pose.fadeTo
  const m = model.frameTransforms
  const k = fadeCoefficients
  k[12] = k[13] = k[14] = 0
  for (let f = 0; f < 4; f++) {
    const at = frames[f]! * 6
    const weight = w[f]!
    k[f * 3] = m[at]! * weight
    k[f * 3 + 1] = m[at + 1]! * weight
    k[f * 3 + 2] = m[at + 2]! * weight
    k[12] += m[at + 3]! * weight
    k[13] += m[at + 4]! * weight
    k[14] += m[at + 5]! * weight
  }
  const data = model.frameData
  const stride = model.frameStride
  const words = wordsOf(data, stride)
  const offsets = fadeOffsets
  for (let f = 0; f < 4; f++) offsets[f] = frames[f]! * stride + FRAME_HEADER_SIZE
  if (words !== undefined) {
    for (let f = 0; f < 4; f++) offsets[f] = (data.byteOffset + offsets[f]!) >>> 2
    if (colors !== undefined) blendFourWordPositionsLit(words, xyzIndex, positions, colors.colors, colors.table)
    else blendFourWords(words, xyzIndex, positions, normals)
  } else {
    blendFourBytes(data, xyzIndex, positions, normals)
    // Lit by the incoming animation's frame blended towards, as a plain blend is.
    if (colors !== undefined) lightBytes(data, offsets[1]!, xyzIndex, colors)
  }
}

function blendFourWordPositionsLit(
  words: Uint32Array,
  xyzIndex: Uint16Array | Uint32Array,
  positions: Float32Array,
  colors: Float32Array,
  table: Float32Array,
): void {
  const k = fadeCoefficients
  const o = fadeOffsets
  const o0 = o[0]!,
    o1 = o[1]!,
    o2 = o[2]!,
    o3 = o[3]!
  const x0 = k[0]!,
    y0 = k[1]!,
    z0 = k[2]!,
    x1 = k[3]!,
    y1 = k[4]!,
    z1 = k[5]!
  const x2 = k[6]!,
    y2 = k[7]!,
    z2 = k[8]!,
    x3 = k[9]!,
    y3 = k[10]!,
    z3 = k[11]!
  const cx = k[12]!,
    cy = k[13]!,
    cz = k[14]!
  const count = xyzIndex.length
  for (let i = 0, out = 0; i < count; i++, out += 3) {
    const v = xyzIndex[i]!
    const a = words[o0 + v]!,
      b = words[o1 + v]!,
      c = words[o2 + v]!,
      d = words[o3 + v]!
    positions[out] = ((a >>> 8) & 255) * y0 + ((b >>> 8) & 255) * y1 + ((c >>> 8) & 255) * y2 + ((d >>> 8) & 255) * y3 + cy
    positions[out + 1] = ((a >>> 16) & 255) * z0 + ((b >>> 16) & 255) * z1 + ((c >>> 16) & 255) * z2 + ((d >>> 16) & 255) * z3 + cz
    positions[out + 2] = (a & 255) * x0 + (b & 255) * x1 + (c & 255) * x2 + (d & 255) * x3 + cx
    const n = (b >>> 24) * 3
    colors[out] = table[n]!
    colors[out + 1] = table[n + 1]!
    colors[out + 2] = table[n + 2]!
  }
}

const fadeFrames = new Int32Array(4)
/** Where each of the four frames' vertices start: words (aligned path) or bytes. */
const fadeOffsets = new Int32Array(4)

function blendFourWords(
  words: Uint32Array,
  xyzIndex: Uint16Array | Uint32Array,
  positions: Float32Array,
  normals: Float32Array | undefined,
): void {
  if (normals === undefined) blendFourWordPositions(words, xyzIndex, positions)
  else blendFourWordsWithNormals(words, xyzIndex, positions, normals)
}

function blendFourWordPositions(words: Uint32Array, xyzIndex: Uint16Array | Uint32Array, positions: Float32Array): void {
  const k = fadeCoefficients
  const o = fadeOffsets
  const o0 = o[0]!,
    o1 = o[1]!,
    o2 = o[2]!,
    o3 = o[3]!
  const x0 = k[0]!,
    y0 = k[1]!,
    z0 = k[2]!,
    x1 = k[3]!,
    y1 = k[4]!,
    z1 = k[5]!
  const x2 = k[6]!,
    y2 = k[7]!,
    z2 = k[8]!,
    x3 = k[9]!,
    y3 = k[10]!,
    z3 = k[11]!
  const cx = k[12]!,
    cy = k[13]!,
    cz = k[14]!
  const count = xyzIndex.length
  for (let i = 0, out = 0; i < count; i++, out += 3) {
    const v = xyzIndex[i]!
    const a = words[o0 + v]!,
      b = words[o1 + v]!,
      c = words[o2 + v]!,
      d = words[o3 + v]!
    // Y-up (X, Y, Z) = Quake (y, z, x).
    positions[out] = ((a >>> 8) & 255) * y0 + ((b >>> 8) & 255) * y1 + ((c >>> 8) & 255) * y2 + ((d >>> 8) & 255) * y3 + cy
    positions[out + 1] = ((a >>> 16) & 255) * z0 + ((b >>> 16) & 255) * z1 + ((c >>> 16) & 255) * z2 + ((d >>> 16) & 255) * z3 + cz
    positions[out + 2] = (a & 255) * x0 + (b & 255) * x1 + (c & 255) * x2 + (d & 255) * x3 + cx
  }
}

function blendFourWordsWithNormals(
  words: Uint32Array,
  xyzIndex: Uint16Array | Uint32Array,
  positions: Float32Array,
  normals: Float32Array,
): void {
  const k = fadeCoefficients
  const w = fadeWeights
  const o = fadeOffsets
  const o0 = o[0]!,
    o1 = o[1]!,
    o2 = o[2]!,
    o3 = o[3]!
  const x0 = k[0]!,
    y0 = k[1]!,
    z0 = k[2]!,
    x1 = k[3]!,
    y1 = k[4]!,
    z1 = k[5]!
  const x2 = k[6]!,
    y2 = k[7]!,
    z2 = k[8]!,
    x3 = k[9]!,
    y3 = k[10]!,
    z3 = k[11]!
  const cx = k[12]!,
    cy = k[13]!,
    cz = k[14]!
  const w0 = w[0]!,
    w1 = w[1]!,
    w2 = w[2]!,
    w3 = w[3]!
  const table = ANORMS_256_YUP
  const count = xyzIndex.length
  for (let i = 0, out = 0; i < count; i++, out += 3) {
    const v = xyzIndex[i]!
    const a = words[o0 + v]!,
      b = words[o1 + v]!,
      c = words[o2 + v]!,
      d = words[o3 + v]!
    positions[out] = ((a >>> 8) & 255) * y0 + ((b >>> 8) & 255) * y1 + ((c >>> 8) & 255) * y2 + ((d >>> 8) & 255) * y3 + cy
    positions[out + 1] = ((a >>> 16) & 255) * z0 + ((b >>> 16) & 255) * z1 + ((c >>> 16) & 255) * z2 + ((d >>> 16) & 255) * z3 + cz
    positions[out + 2] = (a & 255) * x0 + (b & 255) * x1 + (c & 255) * x2 + (d & 255) * x3 + cx
    const na = (a >>> 24) * 3,
      nb = (b >>> 24) * 3,
      nc = (c >>> 24) * 3,
      nd = (d >>> 24) * 3
    normals[out] = table[na]! * w0 + table[nb]! * w1 + table[nc]! * w2 + table[nd]! * w3
    normals[out + 1] = table[na + 1]! * w0 + table[nb + 1]! * w1 + table[nc + 1]! * w2 + table[nd + 1]! * w3
    normals[out + 2] = table[na + 2]! * w0 + table[nb + 2]! * w1 + table[nc + 2]! * w2 + table[nd + 2]! * w3
  }
}

function blendFourBytes(
  data: Uint8Array,
  xyzIndex: Uint16Array | Uint32Array,
  positions: Float32Array,
  normals: Float32Array | undefined,
): void {
  const k = fadeCoefficients
  const w = fadeWeights
  const o = fadeOffsets
  const table = ANORMS_256_YUP
  const count = xyzIndex.length
  for (let i = 0, out = 0; i < count; i++, out += 3) {
    const v = xyzIndex[i]! << 2
    let px = k[13]!,
      py = k[14]!,
      pz = k[12]!,
      nx = 0,
      ny = 0,
      nz = 0
    for (let f = 0; f < 4; f++) {
      const at = o[f]! + v
      px += data[at + 1]! * k[f * 3 + 1]!
      py += data[at + 2]! * k[f * 3 + 2]!
      pz += data[at]! * k[f * 3]!
      const n = data[at + 3]! * 3
      nx += table[n]! * w[f]!
      ny += table[n + 1]! * w[f]!
      nz += table[n + 2]! * w[f]!
    }
    positions[out] = px
    positions[out + 1] = py
    positions[out + 2] = pz
    if (normals !== undefined) {
      normals[out] = nx
      normals[out + 1] = ny
      normals[out + 2] = nz
    }
  }
}

/** What `blendPoseInto` writes besides positions; each output array holds 3 floats per output vertex. */
export interface PoseOutputs {
  positions: Float32Array
  normals?: Float32Array
  /** Per-vertex light: `table` (256 × 3, see `quake2LightTable`) at the normal index of the frame blended towards. */
  colors?: Float32Array
  lightTable?: Float32Array
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
  /** The box of the positions written, min x, y, z then max x, y, z (Y-up), found in the same pass. */
  bounds?: Float64Array
}

/**
 * The general kernel, for the outputs the fast paths do not cover (a power shell): writes an
 * `MD2Pose` (with or without a crossfade) into every output given, in one pass. Positions come from
 * the same arithmetic as the crossfade kernel, so the shell is exactly the body plus its offset.
 */
export function blendPoseInto(model: MD2BlendSource, pose: Readonly<MD2Pose>, xyzIndex: Uint16Array | Uint32Array, out: PoseOutputs): void {
  const fading = pose.fadeWeight > 0
  const keep = fading ? 1 - pose.fadeWeight : 1
  const w = fadeWeights
  w[0] = keep * (1 - pose.t)
  w[1] = keep * pose.t
  w[2] = fading ? pose.fadeWeight * (1 - pose.fadeT) : 0
  w[3] = fading ? pose.fadeWeight * pose.fadeT : 0
  const frames = fadeFrames
  frames[0] = pose.from
  frames[1] = pose.to
  frames[2] = fading ? pose.fadeFrom : pose.from
  frames[3] = fading ? pose.fadeTo : pose.to
  const m = model.frameTransforms
  const k = fadeCoefficients
  k[12] = k[13] = k[14] = 0
  for (let f = 0; f < 4; f++) {
    const at = frames[f]! * 6
    const weight = w[f]!
    k[f * 3] = m[at]! * weight
    k[f * 3 + 1] = m[at + 1]! * weight
    k[f * 3 + 2] = m[at + 2]! * weight
    k[12] += m[at + 3]! * weight
    k[13] += m[at + 4]! * weight
    k[14] += m[at + 5]! * weight
  }
  const data = model.frameData
  const stride = model.frameStride
  const offsets = fadeOffsets
  for (let f = 0; f < 4; f++) offsets[f] = frames[f]! * stride + FRAME_HEADER_SIZE
  const { positions, normals, colors, lightTable, shell, shadow, bounds } = out
  if (bounds !== undefined) {
    bounds[0] = bounds[1] = bounds[2] = Infinity
    bounds[3] = bounds[4] = bounds[5] = -Infinity
  }
  const shadowing = out.shadowParameters
  const sx = shadowing?.[0] ?? 0,
    sy = shadowing?.[1] ?? 0,
    lheight = shadowing?.[2] ?? 0
  const lit = colors !== undefined && lightTable !== undefined ? lightTable : undefined
  const push = out.shellOffset ?? 0
  const table = ANORMS_256_YUP
  const count = xyzIndex.length
  for (let i = 0, o = 0; i < count; i++, o += 3) {
    const v = xyzIndex[i]! << 2
    let px = k[13]!,
      py = k[14]!,
      pz = k[12]!,
      nx = 0,
      ny = 0,
      nz = 0
    for (let f = 0; f < 4; f++) {
      const at = offsets[f]! + v
      px += data[at + 1]! * k[f * 3 + 1]!
      py += data[at + 2]! * k[f * 3 + 2]!
      pz += data[at]! * k[f * 3]!
      if (normals !== undefined) {
        const n = data[at + 3]! * 3
        nx += table[n]! * w[f]!
        ny += table[n + 1]! * w[f]!
        nz += table[n + 2]! * w[f]!
      }
    }
    positions[o] = px
    positions[o + 1] = py
    positions[o + 2] = pz
    if (bounds !== undefined) growBounds(bounds, positions[o]!, positions[o + 1]!, positions[o + 2]!)
    if (normals !== undefined) {
      normals[o] = nx
      normals[o + 1] = ny
      normals[o + 2] = nz
    }
    const n = data[offsets[1]! + v + 3]! * 3
    if (lit !== undefined) {
      colors![o] = lit[n]!
      colors![o + 1] = lit[n + 1]!
      colors![o + 2] = lit[n + 2]!
    }
    if (shell !== undefined) {
      shell[o] = px + table[n]! * push
      shell[o + 1] = py + table[n + 1]! * push
      shell[o + 2] = pz + table[n + 2]! * push
    }
    if (shadow !== undefined) {
      // Quake (x, y, z) = Y-up (Z, X, Y): x and y move by the shade vector × (z + height), z = floor + 1.
      const rise = py + lheight
      shadow[o] = px - sy * rise
      shadow[o + 1] = 1 - lheight
      shadow[o + 2] = pz - sx * rise
    }
  }
}

/**
 * A crossfade whose outgoing pose was blended once, when the fade began, into `outgoing` (positions
 * then normals, as `blendVerticesYUp` writes them): each frame reads two keyframes and the held pose
 * instead of four keyframes. `factor.t` is the incoming blend; `fade.fadeWeight` the outgoing weight.
 * With `bounds`, also the box of the positions written (min x, y, z then max), exactly as stored.
 */
export function blendOverHeldPose(
  model: MD2BlendSource,
  pose: Readonly<MD2Pose>,
  xyzIndex: Uint16Array | Uint32Array,
  positions: Float32Array,
  normals: Float32Array | undefined,
  heldPositions: Float32Array,
  heldNormals: Float32Array | undefined,
  bounds?: Float64Array,
): void {
  const data = model.frameData
  const stride = model.frameStride
  const words = wordsOf(data, stride)
  const keep = 1 - pose.fadeWeight
  const k = coefficients
  const m = model.frameTransforms
  const fa = pose.from * 6
  const fb = pose.to * 6
  const back = (1 - pose.t) * keep
  const t = pose.t * keep
  k[AX] = m[fa]! * back
  k[AY] = m[fa + 1]! * back
  k[AZ] = m[fa + 2]! * back
  k[BX] = m[fb]! * t
  k[BY] = m[fb + 1]! * t
  k[BZ] = m[fb + 2]! * t
  k[CX] = m[fa + 3]! * back + m[fb + 3]! * t
  k[CY] = m[fa + 4]! * back + m[fb + 4]! * t
  k[CZ] = m[fa + 5]! * back + m[fb + 5]! * t
  k[BACK] = back
  k[T] = t
  heldWeight[0] = pose.fadeWeight
  if (words === undefined) {
    // Unaligned frames: the general kernel (rare).
    blendPoseYUp(model, pose, xyzIndex, positions, normals)
    if (bounds !== undefined) boundsOf(positions, bounds)
    return
  }
  const oa = (data.byteOffset + pose.from * stride + FRAME_HEADER_SIZE) >>> 2
  const ob = (data.byteOffset + pose.to * stride + FRAME_HEADER_SIZE) >>> 2
  if (normals === undefined || heldNormals === undefined) {
    blendWordPositionsOverHeld(words, oa, ob, xyzIndex, positions, heldPositions)
    if (bounds !== undefined) boundsOf(positions, bounds)
  } else if (bounds === undefined) blendWordsOverHeld(words, oa, ob, xyzIndex, positions, normals, heldPositions, heldNormals)
  else blendWordsOverHeldBounded(words, oa, ob, xyzIndex, positions, normals, heldPositions, heldNormals, bounds)
}

const heldWeight = new Float64Array(1)

function blendWordPositionsOverHeld(
  words: Uint32Array,
  oa: number,
  ob: number,
  xyzIndex: Uint16Array | Uint32Array,
  positions: Float32Array,
  held: Float32Array,
): void {
  const k = coefficients
  const ax = k[AX]!,
    ay = k[AY]!,
    az = k[AZ]!,
    bx = k[BX]!,
    by = k[BY]!,
    bz = k[BZ]!,
    cx = k[CX]!,
    cy = k[CY]!,
    cz = k[CZ]!
  const w = heldWeight[0]!
  const count = xyzIndex.length
  for (let i = 0, o = 0; i < count; i++, o += 3) {
    const v = xyzIndex[i]!
    const qa = words[oa + v]!
    const qb = words[ob + v]!
    positions[o] = ((qa >>> 8) & 255) * ay + ((qb >>> 8) & 255) * by + cy + held[o]! * w
    positions[o + 1] = ((qa >>> 16) & 255) * az + ((qb >>> 16) & 255) * bz + cz + held[o + 1]! * w
    positions[o + 2] = (qa & 255) * ax + (qb & 255) * bx + cx + held[o + 2]! * w
  }
}

function blendWordsOverHeld(
  words: Uint32Array,
  oa: number,
  ob: number,
  xyzIndex: Uint16Array | Uint32Array,
  positions: Float32Array,
  normals: Float32Array,
  held: Float32Array,
  heldNormals: Float32Array,
): void {
  const k = coefficients
  const ax = k[AX]!,
    ay = k[AY]!,
    az = k[AZ]!,
    bx = k[BX]!,
    by = k[BY]!,
    bz = k[BZ]!,
    cx = k[CX]!,
    cy = k[CY]!,
    cz = k[CZ]!
  const back = k[BACK]!,
    t = k[T]!
  const w = heldWeight[0]!
  const table = ANORMS_256_YUP
  const count = xyzIndex.length
  for (let i = 0, o = 0; i < count; i++, o += 3) {
    const v = xyzIndex[i]!
    const qa = words[oa + v]!
    const qb = words[ob + v]!
    positions[o] = ((qa >>> 8) & 255) * ay + ((qb >>> 8) & 255) * by + cy + held[o]! * w
    positions[o + 1] = ((qa >>> 16) & 255) * az + ((qb >>> 16) & 255) * bz + cz + held[o + 1]! * w
    positions[o + 2] = (qa & 255) * ax + (qb & 255) * bx + cx + held[o + 2]! * w
    const na = (qa >>> 24) * 3
    const nb = (qb >>> 24) * 3
    normals[o] = table[na]! * back + table[nb]! * t + heldNormals[o]! * w
    normals[o + 1] = table[na + 1]! * back + table[nb + 1]! * t + heldNormals[o + 1]! * w
    normals[o + 2] = table[na + 2]! * back + table[nb + 2]! * t + heldNormals[o + 2]! * w
  }
}

/**
 * `blendWordsOverHeld` that also finds the box of the positions it writes, in the same pass. A second
 * copy of the loop rather than a flag in the first: V8 optimises a loop best that only ever sees one
 * kind of call, so the path without a box never pays for one.
 */
function blendWordsOverHeldBounded(
  words: Uint32Array,
  oa: number,
  ob: number,
  xyzIndex: Uint16Array | Uint32Array,
  positions: Float32Array,
  normals: Float32Array,
  held: Float32Array,
  heldNormals: Float32Array,
  bounds: Float64Array,
): void {
  const k = coefficients
  const ax = k[AX]!,
    ay = k[AY]!,
    az = k[AZ]!,
    bx = k[BX]!,
    by = k[BY]!,
    bz = k[BZ]!,
    cx = k[CX]!,
    cy = k[CY]!,
    cz = k[CZ]!
  const back = k[BACK]!,
    t = k[T]!
  const w = heldWeight[0]!
  const table = ANORMS_256_YUP
  let lx = Infinity,
    ly = Infinity,
    lz = Infinity,
    hx = -Infinity,
    hy = -Infinity,
    hz = -Infinity
  const count = xyzIndex.length
  for (let i = 0, o = 0; i < count; i++, o += 3) {
    const v = xyzIndex[i]!
    const qa = words[oa + v]!
    const qb = words[ob + v]!
    const x = ((qa >>> 8) & 255) * ay + ((qb >>> 8) & 255) * by + cy + held[o]! * w
    const y = ((qa >>> 16) & 255) * az + ((qb >>> 16) & 255) * bz + cz + held[o + 1]! * w
    const z = (qa & 255) * ax + (qb & 255) * bx + cx + held[o + 2]! * w
    positions[o] = x
    positions[o + 1] = y
    positions[o + 2] = z
    if (x < lx) lx = x
    if (x > hx) hx = x
    if (y < ly) ly = y
    if (y > hy) hy = y
    if (z < lz) lz = z
    if (z > hz) hz = z
    const na = (qa >>> 24) * 3
    const nb = (qb >>> 24) * 3
    normals[o] = table[na]! * back + table[nb]! * t + heldNormals[o]! * w
    normals[o + 1] = table[na + 1]! * back + table[nb + 1]! * t + heldNormals[o + 1]! * w
    normals[o + 2] = table[na + 2]! * back + table[nb + 2]! * t + heldNormals[o + 2]! * w
  }
  bounds[0] = lx
  bounds[1] = ly
  bounds[2] = lz
  bounds[3] = hx
  bounds[4] = hy
  bounds[5] = hz
  roundBounds(bounds)
}
