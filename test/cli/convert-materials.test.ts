/**
 * A character coloured as real ones are — a textured body, a club coloured by its material's base colour, a
 * hat coloured by vertex colours, a tinted texture — converted to `.md2` with one skin baked from every
 * material. What each triangle shows is compared with its source: the source's colour at the triangle's
 * centre (its texture there times its colour factor, or its vertex colours' mean), worked out from the glTF
 * as three loads it, against the written skin at the triangle's st centre. Colour difference is CIELAB's ΔE.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { encode as encodeJPEG } from 'jpeg-js'
import type { Color, Material, Mesh, Texture } from 'three'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readGLB, packGLB } from '../../src/core/gltf/glb'
import { parseMD2 } from '../../src/core/format/parseMD2'
import type { MD2ModelData } from '../../src/core/format/types'
import { SRGB_TO_LINEAR, deltaE2000, linearToSrgb8, srgb8ToLab } from '../../src/core/images/colorLab'
import type { DecodedImage } from '../../src/core/images/decodedImage'
import { decodePCX } from '../../src/core/images/pcx'
import { decodeTGA } from '../../src/core/images/tga'
import { loadGLTF } from '../../src/cli/readInputs'
import { runOnDisk as run } from '../support/cli'
import { HAT_FACES, RIG_TEXTURE, exportPaintedRig, rigTexturePixels, withImage } from '../../stories/support/rig'

let dir: string
let character: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'md2-materials-'))
  character = join(dir, 'character.glb')
  writeFileSync(character, await exportPaintedRig())
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** CIEDE2000 between two 8-bit sRGB colours. */
const deltaE = (a: readonly number[], b: readonly number[]) => {
  const lab = new Float64Array(6)
  srgb8ToLab(a[0]!, a[1]!, a[2]!, lab, 0)
  srgb8ToLab(b[0]!, b[1]!, b[2]!, lab, 3)
  return deltaE2000(lab[0]!, lab[1]!, lab[2]!, lab[3]!, lab[4]!, lab[5]!)
}

const texel = (image: DecodedImage, u: number, v: number) => {
  const x = Math.min(image.width - 1, Math.max(0, Math.floor(u * image.width)))
  const y = Math.min(image.height - 1, Math.max(0, Math.floor(v * image.height)))
  return Array.from(image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 3))
}

/**
 * Each source triangle's colour at its centre (8-bit sRGB), in the order the bake takes them (visible meshes in
 * scene order, each its triangles in order), from the glTF as convert's own loader gives it to three.
 */
async function sourceColours(path: string): Promise<number[][]> {
  const gltf = await loadGLTF(path, readGLB(new Uint8Array(readFileSync(path))), (image) => image)
  const out: number[][] = []
  gltf.scene.updateMatrixWorld(true)
  gltf.scene.traverseVisible((node) => {
    const mesh = node as Mesh
    if (!mesh.isMesh) return
    const material = mesh.material as Material & { map?: Texture | null; color: Color; vertexColors: boolean }
    const geometry = mesh.geometry
    const index = geometry.getIndex()!
    const uv = geometry.getAttribute('uv')
    const colour = geometry.getAttribute('color')
    for (let t = 0; t < index.count / 3; t++) {
      const corners = [0, 1, 2].map((k) => index.getX(t * 3 + k))
      const linear = [material.color.r, material.color.g, material.color.b]
      if (material.map) {
        const u = corners.reduce((sum, v) => sum + uv.getX(v), 0) / 3
        const v = corners.reduce((sum, c) => sum + uv.getY(c), 0) / 3
        const image = material.map.image as DecodedImage
        const seen = texel(image, u, material.map.flipY ? 1 - v : v).map((c) => SRGB_TO_LINEAR[c]!)
        for (let k = 0; k < 3; k++) linear[k]! *= seen[k]!
      } else if (material.vertexColors && colour) {
        const get = [(v: number) => colour.getX(v), (v: number) => colour.getY(v), (v: number) => colour.getZ(v)]
        for (let k = 0; k < 3; k++) linear[k]! *= corners.reduce((sum, v) => sum + get[k]!(v), 0) / 3
      }
      out.push(linear.map(linearToSrgb8))
    }
  })
  return out
}

/** Each MD2 triangle's colour: the skin at its st centre. */
function drawnColours(model: MD2ModelData, skin: DecodedImage): number[][] {
  const { skinWidth, skinHeight, numTris } = model.header
  const out: number[][] = []
  for (let t = 0; t < numTris; t++) {
    let s = 0
    let u = 0
    for (let k = 0; k < 3; k++) {
      const i = model.triangles[t * 6 + 3 + k]!
      s += model.st[i * 2]! / 3
      u += model.st[i * 2 + 1]! / 3
    }
    out.push(texel(skin, s / skinWidth, u / skinHeight))
  }
  return out
}

function compare(source: number[][], drawn: number[][]): { mean: number; worst: number } {
  expect(drawn.length).toBe(source.length)
  const differences = source.map((colour, t) => deltaE(colour, drawn[t]!))
  return { mean: differences.reduce((a, b) => a + b, 0) / differences.length, worst: Math.max(...differences) }
}

describe('convert bakes every material into one skin', () => {
  it('a textured body, a painted club and a vertex-coloured hat: each triangle shows its source colour', async () => {
    const out = join(dir, 'character.md2')
    const result = await run(['convert', character, out, '--skin-format', 'tga'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toBe('')
    expect(result.stdout).toMatch(/skin \d+×\d+ written to .*character\.tga/)
    const model = parseMD2(new Uint8Array(readFileSync(out)), { name: out })
    expect(model.skins).toEqual(['character.tga'])
    const skin = decodeTGA(new Uint8Array(readFileSync(join(dir, 'character.tga'))))
    expect([skin.width, skin.height]).toEqual([model.header.skinWidth, model.header.skinHeight])
    const source = await sourceColours(character)
    const full = compare(source, drawnColours(model, skin))
    console.log(`materials baked, TGA: mean ΔE ${full.mean.toFixed(2)}, worst ${full.worst.toFixed(2)} over ${source.length} triangles`)
    expect(full.mean).toBeLessThan(1)
    expect(full.worst).toBeLessThan(3)
    // Every hat face's colour and the club's paint are in the skin.
    const drawn = drawnColours(model, skin).map((c) => c.join(','))
    for (const face of HAT_FACES) {
      const want = face.map(linearToSrgb8)
      expect(
        drawn.some((colour) => deltaE(colour.split(',').map(Number), want) < 1),
        `hat face ${want}`,
      ).toBe(true)
    }

    // The same in Quake II's palette: the palette's own cost, measured apart.
    const pcxOut = join(dir, 'paletted.md2')
    expect((await run(['convert', character, pcxOut])).code).toBe(0)
    const paletted = compare(
      source,
      drawnColours(parseMD2(new Uint8Array(readFileSync(pcxOut))), decodePCX(new Uint8Array(readFileSync(join(dir, 'paletted.pcx'))))),
    )
    console.log(`materials baked, PCX in Quake II's palette: mean ΔE ${paletted.mean.toFixed(2)}, worst ${paletted.worst.toFixed(2)}`)
    expect(paletted.mean).toBeLessThan(12)
  })

  it('a plain material with no texture gets a skin of its colour, not none', async () => {
    const { json, bin } = readGLB(new Uint8Array(readFileSync(character)))
    for (const material of json.materials as { pbrMetallicRoughness: Record<string, unknown> }[]) {
      delete material.pbrMetallicRoughness.baseColorTexture
      material.pbrMetallicRoughness.baseColorFactor = [1, 1, 1, 1]
    }
    const plain = join(dir, 'plain.glb')
    writeFileSync(plain, packGLB({ ...json, materials: (json.materials as object[]).map((m) => ({ ...m, name: 'white' })) }, bin))
    const result = await run(['convert', plain, join(dir, 'plain.md2'), '--skin-format', 'tga'])
    expect(result.code, result.stderr).toBe(0)
    const model = parseMD2(new Uint8Array(readFileSync(join(dir, 'plain.md2'))))
    expect(model.skins).toEqual(['plain.tga'])
    const skin = decodeTGA(new Uint8Array(readFileSync(join(dir, 'plain.tga'))))
    const drawn = drawnColours(model, skin)
    // The hat keeps its vertex colours; everything else is white.
    const white = drawn.filter((colour) => colour.every((c) => c === 255)).length
    expect(white).toBeGreaterThan(drawn.length / 2)
  })

  it('a JPEG texture is decoded; a damaged one costs its pixels, not the model, with a note', async () => {
    const jpegBytes = new Uint8Array(encodeJPEG({ ...RIG_TEXTURE, data: Buffer.from(rigTexturePixels()) }, 95).data)
    const jpeg = join(dir, 'jpeg.glb')
    writeFileSync(jpeg, withImage(new Uint8Array(readFileSync(character)), jpegBytes, 'image/jpeg'))
    const result = await run(['convert', jpeg, join(dir, 'jpeg.md2'), '--skin-format', 'tga'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toBe('')
    const model = parseMD2(new Uint8Array(readFileSync(join(dir, 'jpeg.md2'))))
    const fromJPEG = compare(
      await sourceColours(character),
      drawnColours(model, decodeTGA(new Uint8Array(readFileSync(join(dir, 'jpeg.tga'))))),
    )
    console.log(`JPEG texture: mean ΔE ${fromJPEG.mean.toFixed(2)} against the PNG source`)
    expect(fromJPEG.mean).toBeLessThan(3)

    const damaged = jpegBytes.slice(0, 200)
    const broken = join(dir, 'broken.glb')
    writeFileSync(broken, withImage(new Uint8Array(readFileSync(character)), damaged, 'image/jpeg'))
    const kept = await run(['convert', broken, join(dir, 'broken.md2')])
    expect(kept.code, kept.stderr).toBe(0)
    expect(kept.stderr).toMatch(
      /material "skin": its base-colour texture is a damaged JPEG \(image 0: jpeg data: .*\); its colour is baked instead/,
    )
    expect(kept.stderr.trim().split('\n')).toHaveLength(1)
    expect(parseMD2(new Uint8Array(readFileSync(join(dir, 'broken.md2')))).skins).toEqual(['broken.pcx'])
  })

  it("--dither diffuses a PCX skin's colours; with a full-colour skin it is a usage error", async () => {
    const dithered = await run(['convert', character, join(dir, 'dithered.md2'), '--dither'])
    expect(dithered.code, dithered.stderr).toBe(0)
    const model = parseMD2(new Uint8Array(readFileSync(join(dir, 'dithered.md2'))))
    const skin = decodePCX(new Uint8Array(readFileSync(join(dir, 'dithered.pcx'))))
    // Dithered or not, each triangle still shows about its colour.
    expect(compare(await sourceColours(character), drawnColours(model, skin)).mean).toBeLessThan(12)
    const refused = await run(['convert', character, join(dir, 'x.md2'), '--dither', '--skin-format', 'tga'])
    expect(refused).toMatchObject({ code: 2, stderr: expect.stringMatching(/--dither is for pcx skins/) })
  })
})
