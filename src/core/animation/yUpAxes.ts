import { ANORMS_256 } from '../format/normals.js'

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
