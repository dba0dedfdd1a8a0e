import type { Matrix4 } from 'three'

/**
 * Sets `target` to a tag transform (12 floats from `tagTransform`: x, y, z axes and origin in
 * Quake II's Z-up coordinates) in the Y-up coordinates the geometry is built in: each axis and the
 * origin go through the same (x, y, z) → (y, z, x) swap as the vertices, so an attached model built
 * by `createMD2Geometry` lands where the tag puts it.
 */
export function setTagMatrix(target: Matrix4, transform: ArrayLike<number>): Matrix4 {
  const e = target.elements
  // Column j of the Y-up matrix is the swapped image of the Quake axis that Y-up axis j came from:
  // Y-up x was Quake y, Y-up y was Quake z, Y-up z was Quake x.
  swapInto(e, 0, transform, 3)
  swapInto(e, 4, transform, 6)
  swapInto(e, 8, transform, 0)
  swapInto(e, 12, transform, 9)
  e[3] = 0
  e[7] = 0
  e[11] = 0
  e[15] = 1
  return target
}

function swapInto(e: number[], at: number, m: ArrayLike<number>, from: number): void {
  e[at] = m[from + 1]!
  e[at + 1] = m[from + 2]!
  e[at + 2] = m[from]!
}
