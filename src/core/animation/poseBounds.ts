import { FRAME_HEADER_SIZE } from '../format/spec.js'
import type { MD2ModelData } from '../format/types.js'

/**
 * The box of a two-keyframe blend from a handful of vertices.
 *
 * Each coordinate the kernels write is `byteA(v) × sA + byteB(v) × sB + c` on that axis, the same
 * float expression for every vertex, with `sA = scaleA × (1 − t)` and `sB = scaleB × t`. For `t` in
 * [0, 1] the sign of `sA` is the sign of frame A's scale (or it is zero), and so for `sB`. A product by
 * a non-negative float, a sum and the rounding to float32 are monotone, so a vertex whose bytes on an
 * axis are both at least another's (scale ≥ 0; at most, for a negative scale) has a coordinate at least
 * that vertex's, exactly as stored. The greatest coordinate is therefore reached at a vertex on the
 * Pareto front of (±byteA, ±byteB), and the least likewise with the signs turned: per frame pair, a few
 * vertices (about a dozen over the six directions on the ogro's consecutive frames, out of 541 drawn)
 * hold the box of every blend between them.
 */

/** What the candidates are found from: a model's scales and frame bytes. */
export type PoseBoundsSource = Pick<MD2ModelData, 'frameTransforms' | 'frameData' | 'frameStride'>

/**
 * Per frame pair, at most this many candidate lists are kept for a model; past it the cache is
 * emptied and refilled as pairs are met again (only a scrub through thousands of arbitrary pairs
 * gets there: an animation touches about as many pairs as it has frames).
 */
export const MAX_CACHED_PAIRS = 1024

interface CandidateCache {
  /** The layout the lists index (output vertices); a different one starts the cache afresh. */
  xyzIndex: Uint16Array | Uint32Array
  /** Per drawn MD2 vertex, one output vertex drawing it, as a compact list of pairs (see `drawnOf`). */
  drawnVertices: Uint32Array
  drawnOutputs: Uint32Array
  /** `from` → `to` → the pair's candidates (see `pairCandidates`): two small-integer keys, never boxed. */
  pairs: Map<number, Map<number, Uint32Array>>
  /** Lists held, at most `MAX_CACHED_PAIRS`. */
  size: number
}

const caches = new WeakMap<PoseBoundsSource, CandidateCache>()

/**
 * The candidates of the blends of frames `from` → `to` of `model` drawn through `xyzIndex`, for `t`
 * in [0, 1]: `list[0..5]` are where the lists of the six directions end (min x, y, z then max x, y, z,
 * Y-up; the first starts at 6), and each entry is an index in the positions array (output vertex × 3 +
 * axis). Found the first time the pair is met (allocating its list, once, plus the cache on a model's
 * first pair), then read from the cache: allocates nothing in steady state. Assumes the model's frames
 * do not change, as the all-frames box does.
 */
export function pairCandidates(model: PoseBoundsSource, from: number, to: number, xyzIndex: Uint16Array | Uint32Array): Uint32Array {
  let cache = caches.get(model)
  if (cache === undefined || cache.xyzIndex !== xyzIndex) {
    cache = newCache(xyzIndex)
    caches.set(model, cache)
  }
  let row = cache.pairs.get(from)
  let list = row?.get(to)
  if (list === undefined) {
    if (cache.size >= MAX_CACHED_PAIRS) {
      cache.pairs.clear()
      cache.size = 0
      row = undefined
    }
    if (row === undefined) {
      row = new Map()
      cache.pairs.set(from, row)
    }
    list = findCandidates(model, from, to, cache)
    row.set(to, list)
    cache.size++
  }
  return list
}

/**
 * The box of `positions` (min x, y, z then max x, y, z) from the candidates of the pair it was
 * written from, read back from the stored floats: exactly the box of what is drawn.
 */
export function boundsFromCandidates(positions: Float32Array, list: Uint32Array, bounds: Float64Array): void {
  let start = 6
  for (let d = 0; d < 6; d++) {
    const end = list[d]!
    let value: number
    if (d < 3) {
      value = Infinity
      for (let j = start; j < end; j++) {
        const x = positions[list[j]!]!
        if (x < value) value = x
      }
    } else {
      value = -Infinity
      for (let j = start; j < end; j++) {
        const x = positions[list[j]!]!
        if (x > value) value = x
      }
    }
    bounds[d] = value
    start = end
  }
}

function newCache(xyzIndex: Uint16Array | Uint32Array): CandidateCache {
  // One output vertex per drawn MD2 vertex: several output vertices drawing the same MD2 vertex (uv
  // seams) hold identical positions. MD2 vertices no triangle uses are not drawn and never candidates.
  const first = new Map<number, number>()
  for (let i = 0; i < xyzIndex.length; i++) if (!first.has(xyzIndex[i]!)) first.set(xyzIndex[i]!, i)
  const drawnVertices = new Uint32Array(first.size)
  const drawnOutputs = new Uint32Array(first.size)
  let n = 0
  for (const [vertex, output] of first) {
    drawnVertices[n] = vertex
    drawnOutputs[n++] = output
  }
  return { xyzIndex, drawnVertices, drawnOutputs, pairs: new Map(), size: 0 }
}

/** Scratch for `findCandidates`: per value of the first byte (0–255), the best second byte and a vertex with it. */
const bestSecond = new Int32Array(256)
const bestAt = new Int32Array(256)
const found: number[] = []

function findCandidates(model: PoseBoundsSource, from: number, to: number, cache: CandidateCache): Uint32Array {
  const data = model.frameData
  const m = model.frameTransforms
  const va = from * model.frameStride + FRAME_HEADER_SIZE
  const vb = to * model.frameStride + FRAME_HEADER_SIZE
  const { drawnVertices, drawnOutputs } = cache
  const ends: number[] = []
  found.length = 0
  for (let d = 0; d < 6; d++) {
    // Y-up axis c is Quake axis (c + 1) mod 3: the byte at that offset in each vertex.
    const c = d % 3
    const q = (c + 1) % 3
    const greatest = d >= 3
    // Order each frame's byte so that larger means a larger coordinate (max) or a smaller one (min).
    const flipA = m[from * 6 + q]! < 0 !== !greatest
    const flipB = m[to * 6 + q]! < 0 !== !greatest
    bestSecond.fill(-1)
    for (let n = 0; n < drawnVertices.length; n++) {
      const at = drawnVertices[n]! << 2
      const a = data[va + at + q]!
      const b = data[vb + at + q]!
      const ka = flipA ? 255 - a : a
      const kb = flipB ? 255 - b : b
      if (kb > bestSecond[ka]!) {
        bestSecond[ka] = kb
        bestAt[ka] = n
      }
    }
    // The front: from the largest first byte down, each (first, best second) with a second byte above
    // every one met so far.
    let above = -1
    for (let ka = 255; ka >= 0; ka--) {
      const kb = bestSecond[ka]!
      if (kb > above) {
        above = kb
        found.push(drawnOutputs[bestAt[ka]!]! * 3 + c)
      }
    }
    ends.push(6 + found.length)
  }
  const list = new Uint32Array(6 + found.length)
  for (let d = 0; d < 6; d++) list[d] = ends[d]!
  list.set(found, 6)
  return list
}
