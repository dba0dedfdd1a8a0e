import type { SimplifierFlags } from 'meshoptimizer/simplifier'
import { distinctPositions } from './bakeSource.js'
import type { Simplifier } from './loadSimplifier.js'

export interface SimplifyInput {
  /** Triangles over vertices 0…n−1. */
  index: Uint32Array
  /** Bind-pose positions, 3 per vertex. */
  positions: Float32Array
  /** Per vertex: normal (x, y, z) and uv (u, v), what the error metric weighs besides position. */
  attributes: Float32Array
  /** Per vertex: the first vertex identical to it in every frame (same mesh, position, uv and skin). */
  same: Uint32Array
  /**
   * Per vertex, its look (the material or colour it is drawn with; `BakeSource.looks`): each look is simplified
   * apart, its borders with the others kept, so that a small part of its own colour keeps its share.
   */
  looks?: Uint32Array
  /** At most this many triangles… */
  triangles: number
  /** …and this many distinct positions (MD2's vertices, welded). */
  vertices: number
}

/** Normals matter about half as much as position; uv as much within a chart (seams are kept anyway). */
const WEIGHTS = [0.5, 0.5, 0.5, 1, 1]
/**
 * First keeping topology and every attribute seam (skinning deforms the result, so triangles are kept
 * regular); if that gets stuck short of the target, allowing collapses across seams and dropping small
 * parts whole.
 */
const PASSES: SimplifierFlags[][] = [['RegularizeLight'], ['Permissive', 'Prune']]

/**
 * The triangles of a mesh simplified with meshoptimizer until they fit `triangles` and `vertices`, over
 * the same vertices (a subset of them: each kept vertex is one of the source's, so that every frame can
 * still be the source's skinning of it). Vertices identical in every frame are welded first, as the
 * simplifier needs; vertices at one position but apart in uv or skin stay apart, and the simplifier keeps
 * such seams. With `looks`, each look is simplified apart first (`byLook`): what the eye tells apart by its
 * colour keeps triangles of its own. The vertex count is only known after a pass, so the triangle target is
 * lowered until both fit. Returns the closest result when nothing fits (the caller's limit check words the
 * refusal).
 */
export function simplifyMesh(simplifier: Simplifier, input: SimplifyInput): Uint32Array {
  const { positions, attributes, same } = input
  const welded = input.index.map((v) => same[v]!)
  let best: Uint32Array = welded
  let bestExcess = Infinity
  const consider = (out: Uint32Array): boolean => {
    const triangles = out.length / 3
    const vertices = distinctPositions(positions, out)
    if (triangles <= input.triangles && vertices <= input.vertices) return true
    const excess = Math.max(triangles / input.triangles, vertices / input.vertices)
    if (excess < bestExcess) {
      best = out
      bestExcess = excess
    }
    return false
  }
  const lock = input.looks && lookBorders(positions, welded, input.looks)
  for (const flags of input.looks ? LOOK_PASSES : []) {
    let target = Math.min(input.triangles, welded.length / 3)
    for (let attempt = 0; attempt < 6 && target >= 1; attempt++) {
      const out = byLook(simplifier, welded, input, input.looks!, lock!, target, flags)
      if (!out) break
      if (consider(out)) return out
      const vertices = distinctPositions(positions, out)
      target = Math.floor(Math.min(target - 1, (out.length / 3) * Math.min(1, input.vertices / vertices) * 0.97))
    }
  }
  for (const flags of PASSES) {
    let target = Math.min(input.triangles, welded.length / 3)
    for (let attempt = 0; attempt < 10 && target >= 1; attempt++) {
      const [out] = simplifier.simplifyWithAttributes(welded, positions, 3, attributes, 5, WEIGHTS, null, target * 3, 1, flags)
      if (consider(out)) return out
      const triangles = out.length / 3
      // Stuck above the target: lowering it does not help this pass.
      if (triangles > target) break
      target = Math.min(target - 1, Math.floor(triangles * Math.min(1, input.vertices / distinctPositions(positions, out)) * 0.97))
    }
  }
  return best
}

/** The fewest triangles a look keeps (all it has, when fewer): a small part of its own colour stays a shape. */
const LOOK_FLOOR = 8
/** Each look's triangles kept regular first; then collapses across its uv seams allowed, never pruning a part. */
const LOOK_PASSES: SimplifierFlags[][] = [['RegularizeLight'], ['Permissive']]

/**
 * Each look simplified apart to one error, the lowest at which all of them together come to at most `target`
 * triangles (found by halving): only its borders with other looks locked (`lock`), so that neighbours still
 * meet. Not its other borders (meshoptimizer's LockBorder): a seam meridian or open edge, frozen, ate a small
 * budget and left the rest slivers (at 200 triangles the test's body covered 0.31, whole-mesh 0.50). The error
 * each may make is the common one scaled by the square root of its size against the model's, so that a small
 * part keeps more of its shape than the body would give it, and none drops below `LOOK_FLOOR` triangles.
 * Undefined when even the largest error leaves too many (locked borders, many looks): the caller simplifies
 * the mesh as one.
 */
function byLook(
  simplifier: Simplifier,
  welded: Uint32Array,
  input: SimplifyInput,
  looks: Uint32Array,
  lock: Uint8Array,
  target: number,
  flags: SimplifierFlags[],
): Uint32Array | undefined {
  const { positions, attributes } = input
  const groups = new Map<number, number[]>()
  for (let t = 0; t < welded.length; t += 3) {
    const look = looks[welded[t]!]!
    let group = groups.get(look)
    if (!group) groups.set(look, (group = []))
    group.push(welded[t]!, welded[t + 1]!, welded[t + 2]!)
  }
  if (groups.size < 2) return undefined
  const extent = (index: ArrayLike<number>) => {
    const low = [Infinity, Infinity, Infinity]
    const high = [-Infinity, -Infinity, -Infinity]
    for (let i = 0; i < index.length; i++)
      for (let k = 0; k < 3; k++) {
        const value = positions[index[i]! * 3 + k]!
        low[k] = Math.min(low[k]!, value)
        high[k] = Math.max(high[k]!, value)
      }
    return Math.max(high[0]! - low[0]!, high[1]! - low[1]!, high[2]! - low[2]!, 1e-9)
  }
  const parts = [...groups.values()].map((index) => ({ index: Uint32Array.from(index), size: 0 }))
  const whole = extent(welded)
  for (const part of parts) part.size = extent(part.index)
  const run = (error: number): Uint32Array[] =>
    parts.map(({ index, size }) => {
      if (index.length / 3 <= LOOK_FLOOR) return index
      const [out] = simplifier.simplifyWithAttributes(
        index,
        positions,
        3,
        attributes,
        5,
        WEIGHTS,
        lock,
        LOOK_FLOOR * 3,
        error * whole * Math.sqrt(size / whole),
        ['Sparse', 'ErrorAbsolute', ...flags],
      )
      return out
    })
  const count = (outs: Uint32Array[]) => outs.reduce((sum, out) => sum + out.length / 3, 0)
  let high = 1
  let fitting = run(high)
  if (count(fitting) > target) return undefined
  let low = 0
  for (let step = 0; step < 16; step++) {
    const middle = Math.sqrt(Math.max(low, 1e-6) * high)
    const outs = run(middle)
    if (count(outs) <= target) {
      high = middle
      fitting = outs
    } else low = middle
    if (high / Math.max(low, 1e-6) < 1.05) break
  }
  const joined = new Uint32Array(count(fitting) * 3)
  let at = 0
  for (const out of fitting) {
    joined.set(out, at)
    at += out.length
  }
  return joined
}

/**
 * 1 for each vertex at a position that triangles of two looks or more use (a vertex seen with two looks is two
 * vertices at one position, `mergeParts`): the borders between looks, to be locked.
 */
function lookBorders(positions: Float32Array, index: Uint32Array, looks: Uint32Array): Uint8Array {
  const key = (v: number) => `${positions[v * 3]} ${positions[v * 3 + 1]} ${positions[v * 3 + 2]}`
  const lookAt = new Map<string, number>()
  const shared = new Set<string>()
  for (let t = 0; t < index.length; t += 3) {
    const look = looks[index[t]!]!
    for (let k = 0; k < 3; k++) {
      const at = key(index[t + k]!)
      const found = lookAt.get(at)
      if (found === undefined) lookAt.set(at, look)
      else if (found !== look) shared.add(at)
    }
  }
  const lock = new Uint8Array(positions.length / 3)
  if (shared.size > 0) for (const v of index) if (shared.has(key(v))) lock[v] = 1
  return lock
}
