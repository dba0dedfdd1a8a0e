/** Min x, y, z then max x, y, z of 3-float positions, found by walking them all (the reference the bounds code is held to). */
export function boxOfPositions(positions: ArrayLike<number>): number[] {
  const box = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]
  for (let o = 0; o < positions.length; o += 3) {
    for (let axis = 0; axis < 3; axis++) {
      box[axis] = Math.min(box[axis]!, positions[o + axis]!)
      box[axis + 3] = Math.max(box[axis + 3]!, positions[o + axis]!)
    }
  }
  return box
}
