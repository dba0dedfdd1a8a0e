import { createMD2, type MD2ModelData } from '../../src/index'

/** [x0, y0, z0, x1, y1, z1]: an axis-aligned box in Quake units. */
type Box = readonly [number, number, number, number, number, number]

/**
 * A stand-in rifle for the UFO:AI soldier's hand (no UFO:AI weapon model is bundled), built with the
 * library's own `createMD2`: barrel along +X (Quake's forward), grip at the origin, where
 * `tag_rweapon` holds it.
 */
export function createRifle(): MD2ModelData {
  const boxes: Box[] = [
    [-6, -0.8, -0.6, 14, 0.8, 1.6], // receiver and barrel
    [14, -0.4, 0.2, 22, 0.4, 1], // muzzle
    [-13, -0.9, -2.2, -5, 0.9, 1.2], // stock
    [-1.2, -0.6, -4, 0.8, 0.6, -0.5], // grip
    [3, -0.6, -4.5, 5, 0.6, -0.5], // magazine
  ]
  const positions: number[] = []
  const triangles: number[] = []
  for (const [x0, y0, z0, x1, y1, z1] of boxes) {
    const base = positions.length / 3
    for (let i = 0; i < 8; i++) positions.push(i & 1 ? x1 : x0, i & 2 ? y1 : y0, i & 4 ? z1 : z0)
    // Corners by bits (x, y, z); each face clockwise seen from outside, as MD2 winds.
    for (const [a, b, c, d] of [
      [0, 2, 3, 1], // bottom (−z)
      [4, 5, 7, 6], // top (+z)
      [0, 1, 5, 4], // −y
      [2, 6, 7, 3], // +y
      [0, 4, 6, 2], // −x
      [1, 3, 7, 5], // +x
    ] as const) {
      triangles.push(base + a, base + c, base + b, base + a, base + d, base + c)
    }
  }
  return createMD2({
    name: 'rifle.md2',
    frames: [positions],
    triangles,
    uvs: new Array((positions.length / 3) * 2).fill(0),
    skinWidth: 8,
    skinHeight: 8,
    frameNames: ['rifle'],
  })
}
