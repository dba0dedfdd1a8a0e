import { LITTLE_ENDIAN_HOST } from './bytes'
import { FRAME_HEADER_SIZE } from './constants'
import { ANORMS_256 } from './normals'
import type { MD2Model } from './types'

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
export type MD2BlendSource = Pick<MD2Model, 'frameTransforms' | 'frameData' | 'frameStride'>

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
 */
export function blendVerticesYUpBy(
  model: MD2BlendSource,
  from: number,
  to: number,
  factor: Readonly<BlendFactor>,
  xyzIndex: Uint16Array | Uint32Array,
  positions: Float32Array,
  normals?: Float32Array,
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
    if (normals === undefined) blendWordPositions(words, oa, words, ob, xyzIndex, positions)
    else blendWords(words, oa, words, ob, xyzIndex, positions, normals)
  } else {
    // Unaligned frames (a file read from an odd offset) or a big-endian host: byte by byte.
    blendBytePositions(data, va, vb, xyzIndex, positions)
    if (normals !== undefined) blendByteNormals(data, va, vb, xyzIndex, normals)
  }
}

/**
 * The blend's coefficients, shared by the loops below: numbers in a Float64Array are read and
 * written unboxed, where passing nine fractional arguments would box each of them.
 */
const coefficients = new Float64Array(11)
const AX = 0, AY = 1, AZ = 2, BX = 3, BY = 4, BZ = 5, CX = 6, CY = 7, CZ = 8, BACK = 9, T = 10

function blendWordPositions(
  wa: Uint32Array,
  oa: number,
  wb: Uint32Array,
  ob: number,
  xyzIndex: Uint16Array | Uint32Array,
  positions: Float32Array,
): void {
  const k = coefficients
  const ax = k[AX]!, ay = k[AY]!, az = k[AZ]!, bx = k[BX]!, by = k[BY]!, bz = k[BZ]!, cx = k[CX]!, cy = k[CY]!, cz = k[CZ]!
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
  const ax = k[AX]!, ay = k[AY]!, az = k[AZ]!, bx = k[BX]!, by = k[BY]!, bz = k[BZ]!, cx = k[CX]!, cy = k[CY]!, cz = k[CZ]!
  const back = k[BACK]!, t = k[T]!
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

/** `a` and `b`: byte offsets in `data` of the two frames' first vertex. */
function blendBytePositions(data: Uint8Array, a: number, b: number, xyzIndex: Uint16Array | Uint32Array, positions: Float32Array): void {
  const k = coefficients
  const ax = k[AX]!, ay = k[AY]!, az = k[AZ]!, bx = k[BX]!, by = k[BY]!, bz = k[BZ]!, cx = k[CX]!, cy = k[CY]!, cz = k[CZ]!
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
  const back = k[BACK]!, t = k[T]!
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
