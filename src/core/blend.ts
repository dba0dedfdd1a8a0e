import { ANORMS_256 } from './normals'
import type { MD2Frame } from './types'

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

/**
 * The per-frame kernel: for each output vertex `i` (reading MD2 vertex `xyzIndex[i]`), writes the
 * blend of two keyframes at `t` into `positions` (and `normals` if given), Y-up. Dequantizes while
 * blending with the scales and the blend factor folded into one multiply-add per component; touches
 * each output float once; allocates nothing.
 */
export function blendVerticesYUp(
  from: MD2Frame,
  to: MD2Frame,
  t: number,
  xyzIndex: Uint16Array | Uint32Array,
  positions: Float32Array,
  normals?: Float32Array,
): void {
  const back = 1 - t
  const ax = from.scale[0] * back, ay = from.scale[1] * back, az = from.scale[2] * back
  const bx = to.scale[0] * t, by = to.scale[1] * t, bz = to.scale[2] * t
  const cx = from.translate[0] * back + to.translate[0] * t
  const cy = from.translate[1] * back + to.translate[1] * t
  const cz = from.translate[2] * back + to.translate[2] * t
  const va = from.vertices
  const vb = to.vertices
  const count = xyzIndex.length
  for (let i = 0, o = 0; i < count; i++, o += 3) {
    const v = xyzIndex[i]! << 2
    positions[o] = va[v + 1]! * ay + vb[v + 1]! * by + cy
    positions[o + 1] = va[v + 2]! * az + vb[v + 2]! * bz + cz
    positions[o + 2] = va[v]! * ax + vb[v]! * bx + cx
  }
  if (normals === undefined) return
  const table = ANORMS_256_YUP
  for (let i = 0, o = 0; i < count; i++, o += 3) {
    const v = xyzIndex[i]! << 2
    const na = va[v + 3]! * 3
    const nb = vb[v + 3]! * 3
    normals[o] = table[na]! * back + table[nb]! * t
    normals[o + 1] = table[na + 1]! * back + table[nb + 1]! * t
    normals[o + 2] = table[na + 2]! * back + table[nb + 2]! * t
  }
}
