import { MD2Error } from '../MD2Error.js'
import { nearestNormalIndex } from './normals.js'
import type { MD2Frame } from './types.js'

/** A frame quantized to bytes, with how far its decoded positions land from the input. */
export interface QuantizedFrame {
  frame: MD2Frame
  /** Per axis (x, y, z), the largest |decoded − input| over the vertices, in model units. At most scale/2. */
  error: [number, number, number]
  /** The largest of `error`. */
  maxError: number
}

function checkPositions(positions: ArrayLike<number>, name: string): number {
  if (positions.length === 0 || positions.length % 3 !== 0) {
    throw new MD2Error(
      'BAD_ARGUMENT',
      `frame "${name}": ${positions.length} position numbers, expected 3 per vertex and at least one vertex`,
    )
  }
  for (let i = 0; i < positions.length; i++) {
    if (!Number.isFinite(positions[i])) {
      throw new MD2Error('BAD_VALUE', `frame "${name}": vertex ${Math.floor(i / 3)} position is not finite (${positions[i]})`)
    }
  }
  return positions.length / 3
}

/**
 * Vertex normals as qdata computes them: each face normal (v0 − v1) × (v2 − v1), normalised (MD2
 * triangles are clockwise seen from outside, so it points out), summed over a vertex's faces with equal
 * weight, normalised. A vertex on no face, or only on degenerate ones, gets (0, 0, 0).
 * `triangles` holds 3 vertex indices per triangle.
 */
export function computeVertexNormals(positions: ArrayLike<number>, triangles: ArrayLike<number>, out?: Float32Array): Float32Array {
  const normals = out ?? new Float32Array(positions.length)
  normals.fill(0, 0, positions.length)
  const numVertices = positions.length / 3
  for (let i = 0; i + 2 < triangles.length; i += 3) {
    const a = triangles[i]!,
      b = triangles[i + 1]!,
      c = triangles[i + 2]!
    for (const v of [a, b, c]) {
      if (!Number.isInteger(v) || v < 0 || v >= numVertices)
        throw new MD2Error('BAD_INDEX', `triangle ${i / 3} uses vertex ${v}, the frame has ${numVertices}`)
    }
    const ux = positions[a * 3]! - positions[b * 3]!,
      uy = positions[a * 3 + 1]! - positions[b * 3 + 1]!,
      uz = positions[a * 3 + 2]! - positions[b * 3 + 2]!
    const vx = positions[c * 3]! - positions[b * 3]!,
      vy = positions[c * 3 + 1]! - positions[b * 3 + 1]!,
      vz = positions[c * 3 + 2]! - positions[b * 3 + 2]!
    let nx = uy * vz - uz * vy
    let ny = uz * vx - ux * vz
    let nz = ux * vy - uy * vx
    const length = Math.hypot(nx, ny, nz)
    if (length === 0) continue
    nx /= length
    ny /= length
    nz /= length
    addTo(normals, a, nx, ny, nz)
    addTo(normals, b, nx, ny, nz)
    addTo(normals, c, nx, ny, nz)
  }
  // Only the direction matters to the anorm match, but callers may use the vectors themselves.
  for (let v = 0; v < positions.length; v += 3) {
    const length = Math.hypot(normals[v]!, normals[v + 1]!, normals[v + 2]!)
    if (length > 0) {
      normals[v] = normals[v]! / length
      normals[v + 1] = normals[v + 1]! / length
      normals[v + 2] = normals[v + 2]! / length
    }
  }
  return normals
}

function addTo(vectors: Float32Array, index: number, x: number, y: number, z: number): void {
  vectors[index * 3] = vectors[index * 3]! + x
  vectors[index * 3 + 1] = vectors[index * 3 + 1]! + y
  vectors[index * 3 + 2] = vectors[index * 3 + 2]! + z
}

function frameNormals(
  positions: ArrayLike<number>,
  normals: ArrayLike<number> | undefined,
  triangles: ArrayLike<number> | undefined,
  name: string,
): ArrayLike<number> {
  if (normals) {
    if (normals.length !== positions.length) {
      throw new MD2Error('BAD_ARGUMENT', `frame "${name}": ${normals.length} normal numbers for ${positions.length} position numbers`)
    }
    for (let i = 0; i < normals.length; i++) {
      if (!Number.isFinite(normals[i])) throw new MD2Error('BAD_VALUE', `frame "${name}": vertex ${Math.floor(i / 3)} normal is not finite`)
    }
    return normals
  }
  if (!triangles) {
    throw new MD2Error('BAD_ARGUMENT', `frame "${name}": give either normals or the triangles to compute them from`)
  }
  return computeVertexNormals(positions, triangles)
}

/**
 * Quantizes one frame as qdata does: per axis `scale = (max − min) / 255` and `translate = min` (both
 * float32, as stored), `v = floor((x − translate) / scale + 0.5)` clamped to 0..255 (all 0 on an axis
 * where every vertex is equal: scale 0). The normal index is the first of the 162 anorms with the highest
 * dot product with the vertex normal: `normals` if given (need not be unit length), else computed from
 * `triangles` (3 vertex indices each, MD2 clockwise winding) as qdata does, see `computeVertexNormals`.
 *
 * Throws `MD2Error` `BAD_VALUE` for a non-finite position or normal, `BAD_ARGUMENT` for mismatched
 * lengths or when neither normals nor triangles are given. The name is not checked here; `writeMD2`
 * refuses names over 15 bytes.
 */
export function quantizeFrame(
  positions: ArrayLike<number>,
  normals: ArrayLike<number> | undefined,
  name: string,
  triangles?: ArrayLike<number>,
): QuantizedFrame {
  const numVertices = checkPositions(positions, name)
  const vertexNormals = frameNormals(positions, normals, triangles, name)
  const { scale, translate } = frameBounds(positions, name)
  const vertices = new Uint8Array(numVertices * 4)
  const error: [number, number, number] = [0, 0, 0]
  for (let v = 0; v < numVertices; v++) {
    for (let k = 0; k < 3; k++) {
      const x = positions[v * 3 + k]!
      const s = scale[k]!
      const t = translate[k]!
      const q = s === 0 ? 0 : Math.min(255, Math.max(0, Math.floor((x - t) / s + 0.5)))
      vertices[v * 4 + k] = q
      const e = Math.abs(q * s + t - x)
      if (e > error[k]!) error[k] = e
    }
    vertices[v * 4 + 3] = nearestNormalIndex(vertexNormals[v * 3]!, vertexNormals[v * 3 + 1]!, vertexNormals[v * 3 + 2]!)
  }
  return { frame: { name, scale, translate, vertices }, error, maxError: Math.max(...error) }
}

function frameBounds(positions: ArrayLike<number>, name: string): { scale: [number, number, number]; translate: [number, number, number] } {
  const min = [Infinity, Infinity, Infinity]
  const max = [-Infinity, -Infinity, -Infinity]
  for (let i = 0; i < positions.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const x = positions[i + k]!
      if (x < min[k]!) min[k] = x
      if (x > max[k]!) max[k] = x
    }
  }
  const scale = [0, 1, 2].map((k) => Math.fround((max[k]! - min[k]!) / 255)) as [number, number, number]
  const translate = [0, 1, 2].map((k) => Math.fround(min[k]!)) as [number, number, number]
  // Decoding reaches 255 × scale + translate, which must stay a finite float32 as well.
  const reach = [0, 1, 2].map((k) => Math.fround(255 * scale[k]! + translate[k]!))
  if (![...scale, ...translate, ...reach].every(Number.isFinite)) {
    throw new MD2Error(
      'BAD_VALUE',
      `frame "${name}": the bounds (${min.join(', ')}) to (${max.join(', ')}) do not fit float32 scale and translate`,
    )
  }
  return { scale, translate }
}
