/**
 * A glTF mesh with no texture coordinates (a plain-coloured or vertex-coloured model, as CAD and kitbash
 * exports often are) is valid glTF: convert bakes it with its colours (a skin of its material colour, or of its
 * triangles' vertex colours, each triangle's st moved into its colour), rather than refusing "no uv attribute".
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { packGLB } from '../../src/core/gltf/glb'
import { decodePCX } from '../../src/core/images/pcx'
import { runOnDisk as run } from '../support/cli'

const dir = mkdtempSync(join(tmpdir(), 'md2-colours-only-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Vertex colours of the tetrahedron's corners (linear RGBA): red, green, blue, white. */
const CORNERS = [1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1]
/** Its faces, each of one colour when every corner of a face is its colour: one vertex per corner and face. */
const FACES = [
  [0, 2, 1],
  [0, 1, 3],
  [0, 3, 2],
  [1, 2, 3],
]

/** A tetrahedron with positions, indices and a red material, no TEXCOORD_0; with `COLOR_0` when asked. */
function tetrahedron(vertexColours: boolean): Uint8Array {
  const corners = [0, 0, 0, 10, 0, 0, 0, 10, 0, 0, 0, 10]
  // Each face's three vertices take the colour of its first corner: every triangle one flat colour.
  const positions = new Float32Array(FACES.flatMap((face) => face.flatMap((c) => corners.slice(c * 3, c * 3 + 3))))
  const colours = new Float32Array(FACES.flatMap((face) => [0, 1, 2].flatMap(() => CORNERS.slice(face[0]! * 4, face[0]! * 4 + 4))))
  const indices = new Uint16Array(FACES.flatMap((_, f) => [f * 3, f * 3 + 1, f * 3 + 2]))
  const bin = new Uint8Array(positions.byteLength + colours.byteLength + indices.byteLength)
  bin.set(new Uint8Array(positions.buffer), 0)
  bin.set(new Uint8Array(colours.buffer), positions.byteLength)
  bin.set(new Uint8Array(indices.buffer), positions.byteLength + colours.byteLength)
  const json = {
    asset: { version: '2.0' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0, name: 'tetra' }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0, ...(vertexColours ? { COLOR_0: 1 } : {}) }, indices: 2, material: 0 }] }],
    materials: [{ pbrMetallicRoughness: { baseColorFactor: vertexColours ? [1, 1, 1, 1] : [0.8, 0.05, 0.05, 1] } }],
    buffers: [{ byteLength: bin.byteLength }],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: positions.byteLength },
      { buffer: 0, byteOffset: positions.byteLength, byteLength: colours.byteLength },
      { buffer: 0, byteOffset: positions.byteLength + colours.byteLength, byteLength: indices.byteLength },
    ],
    accessors: [
      { bufferView: 0, componentType: 5126, count: 12, type: 'VEC3', min: [0, 0, 0], max: [10, 10, 10] },
      { bufferView: 1, componentType: 5126, count: 12, type: 'VEC4' },
      { bufferView: 2, componentType: 5123, count: 12, type: 'SCALAR' },
    ],
  }
  return packGLB(json, bin)
}

/** Each triangle's colour in the written skin, sampled at its st's centre (RGB, 0–255). */
function triangleColours(md2: string, pcx: string): number[][] {
  const model = parseMD2(new Uint8Array(readFileSync(md2)))
  const skin = decodePCX(new Uint8Array(readFileSync(pcx)))
  return Array.from({ length: model.header.numTris }, (_, k) => {
    const corners = [3, 4, 5].map((c) => model.triangles[k * 6 + c]!)
    const s = corners.reduce((sum, i) => sum + model.st[i * 2]!, 0) / 3
    const t = corners.reduce((sum, i) => sum + model.st[i * 2 + 1]!, 0) / 3
    const at = (Math.min(skin.height - 1, Math.floor(t)) * skin.width + Math.min(skin.width - 1, Math.floor(s))) * 4
    return [...skin.data.subarray(at, at + 3)]
  })
}

describe('convert bakes a mesh with no texture coordinates with its colours', () => {
  it('a plain material: the skin is its colour', async () => {
    const input = join(dir, 'plain.glb')
    writeFileSync(input, tetrahedron(false))
    const result = await run(['convert', input, join(dir, 'plain.md2')])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/skin \d+×\d+ written to .*plain\.pcx/)
    for (const [r, g, b] of triangleColours(join(dir, 'plain.md2'), join(dir, 'plain.pcx'))) {
      expect(r).toBeGreaterThan(180)
      expect(g! + b!).toBeLessThan(100)
    }
  })

  it('vertex colours: each triangle keeps its own', async () => {
    const input = join(dir, 'coloured.glb')
    writeFileSync(input, tetrahedron(true))
    const result = await run(['convert', input, join(dir, 'coloured.md2')])
    expect(result.code, result.stderr).toBe(0)
    const colours = triangleColours(join(dir, 'coloured.md2'), join(dir, 'coloured.pcx'))
    // Red, red, red, green by their first corners (0, 0, 0, 1): the channel that leads is the colour's.
    const leading = colours.map((rgb) => (Math.min(...rgb) > 200 ? 'white' : ['red', 'green', 'blue'][rgb.indexOf(Math.max(...rgb))]))
    expect(leading).toEqual(['red', 'red', 'red', 'green'])
  })
})
