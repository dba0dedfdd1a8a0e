/** A palette whose entry i is (i, 255 − i, i ^ 0x55), so every index has a distinct, known colour. */
export const TEST_PALETTE = Uint8Array.from({ length: 768 }, (_, k) => {
  const i = Math.floor(k / 3)
  return [i, 255 - i, i ^ 0x55][k % 3]!
})

/** The RGBA pixels TEST_PALETTE gives these indices (alpha 0 for `transparent`). */
export function paletteRGBA(indices: number[], transparent?: number): number[] {
  return indices.flatMap((i) => [i, 255 - i, i ^ 0x55, i === transparent ? 0 : 255])
}
