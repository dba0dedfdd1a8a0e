import { createMD2 } from '../../src/core/format/createMD2'
import type { MD2ModelData } from '../../src/core/format/types'

/**
 * A small model with many frames (a tetrahedron turning and growing over `frameCount` frames), written
 * and read back through the library's own writer and parser: the shape that needs a second block of
 * texture rows on the GPU when its frames outnumber the device's rows.
 */
export function manyFrameModel(frameCount: number): MD2ModelData {
  const base = [
    [20, 0, -10],
    [-10, 17, -10],
    [-10, -17, -10],
    [0, 0, 25],
  ]
  const frames = Array.from({ length: frameCount }, (_, f) => {
    const angle = (f / frameCount) * Math.PI * 2
    const grow = 1 + f / frameCount
    return base.flatMap(([x, y, z]) => [
      (x! * Math.cos(angle) - y! * Math.sin(angle)) * grow,
      (x! * Math.sin(angle) + y! * Math.cos(angle)) * grow,
      z! * grow,
    ])
  })
  return createMD2({
    frames,
    triangles: [0, 1, 2, 0, 3, 1, 1, 3, 2, 2, 3, 0],
    uvs: [0, 0, 1, 0, 0, 1, 1, 1],
    skinWidth: 64,
    skinHeight: 64,
    name: 'many-frames.md2',
  })
}
