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
 * such seams. The vertex count is only known after a pass, so the triangle target is lowered until both
 * fit. Returns the closest result when nothing fits (the caller's limit check words the refusal).
 */
export function simplifyMesh(simplifier: Simplifier, input: SimplifyInput): Uint32Array {
  const { positions, attributes, same } = input
  const welded = input.index.map((v) => same[v]!)
  let best: Uint32Array = welded
  let bestExcess = Infinity
  for (const flags of PASSES) {
    let target = Math.min(input.triangles, welded.length / 3)
    for (let attempt = 0; attempt < 10 && target >= 1; attempt++) {
      const [out] = simplifier.simplifyWithAttributes(welded, positions, 3, attributes, 5, WEIGHTS, null, target * 3, 1, flags)
      const triangles = out.length / 3
      const vertices = distinctPositions(positions, out)
      if (triangles <= input.triangles && vertices <= input.vertices) return out
      const excess = Math.max(triangles / input.triangles, vertices / input.vertices)
      if (excess < bestExcess) {
        best = out
        bestExcess = excess
      }
      // Stuck above the target: lowering it does not help this pass.
      if (triangles > target) break
      target = Math.min(target - 1, Math.floor(triangles * Math.min(1, input.vertices / vertices) * 0.97))
    }
  }
  return best
}
