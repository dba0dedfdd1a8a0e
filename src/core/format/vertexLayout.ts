import type { MD2ModelData } from './types.js'

/**
 * A renderable layout of an MD2 model: one vertex per distinct (xyz index, st index) pair used by
 * the triangles, an index list, and texture coordinates. Built once per model and shared by every
 * instance; only positions and normals change per frame.
 */
export interface MD2VertexLayout {
  /** For each output vertex, the MD2 vertex (xyz) index it reads from each frame. */
  xyzIndex: Uint16Array
  /** For each output vertex, its st index. */
  stIndex: Uint16Array
  /** u, v per output vertex: s / skinWidth and 1 − t / skinHeight (three.js's v runs upward). */
  uvs: Float32Array
  /** Three indices per triangle, counter-clockwise seen from outside (MD2's clockwise reversed). */
  indices: Uint16Array | Uint32Array
  vertexCount: number
}

/**
 * Builds the vertex layout. The triangle order is reversed to (v0, v2, v1): MD2 faces are clockwise
 * seen from outside, three.js front faces are counter-clockwise, and the Y-up conversion is a
 * rotation, which keeps handedness (unlike the (x, z, y) swap some loaders use, which mirrors).
 */
export function buildVertexLayout(model: MD2ModelData): MD2VertexLayout {
  const { triangles, st } = model
  const { numTris, numST, skinWidth, skinHeight } = model.header
  const corners = numTris * 3
  // A pair key is xyz × numST + st; a Map keeps this O(corners) without a numVertices × numST table.
  const slotOf = new Map<number, number>()
  const xyzIndex = new Uint16Array(corners)
  const stIndex = new Uint16Array(corners)
  const indices = corners > 65535 ? new Uint32Array(corners) : new Uint16Array(corners)
  let vertexCount = 0
  for (let tri = 0; tri < numTris; tri++) {
    for (let k = 0; k < 3; k++) {
      const xyz = triangles[tri * 6 + k]!
      const s = triangles[tri * 6 + 3 + k]!
      const key = xyz * numST + s
      let slot = slotOf.get(key)
      if (slot === undefined) {
        slot = vertexCount++
        slotOf.set(key, slot)
        xyzIndex[slot] = xyz
        stIndex[slot] = s
      }
      // Corner order 0, 2, 1 flips the winding to counter-clockwise.
      indices[tri * 3 + (k === 0 ? 0 : 3 - k)] = slot
    }
  }
  const uvs = new Float32Array(vertexCount * 2)
  for (let i = 0; i < vertexCount; i++) {
    const s = stIndex[i]!
    uvs[i * 2] = st[s * 2]! / skinWidth
    uvs[i * 2 + 1] = 1 - st[s * 2 + 1]! / skinHeight
  }
  return {
    xyzIndex: xyzIndex.slice(0, vertexCount),
    stIndex: stIndex.slice(0, vertexCount),
    uvs,
    indices,
    vertexCount,
  }
}
