/**
 * exportGLTF in Chromium (GLTFExporter encodes through a canvas): the .glb read back by three's own
 * GLTFLoader holds every keyframe of the model, vertex for vertex, its named animations and its skin.
 */
import { type Mesh, type MeshStandardMaterial, Texture } from 'three'
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { describe, expect, test } from 'vitest'
import { createMD2Geometry, exportGLTF, MD2SkinLoader, parseMD2, writeMD2 } from '../../src/index'
import { writeMD2Frame } from '../../src/three/mesh/MD2Geometry'

const OGRO = '/assets/quake2/ogro/tris.MD2'
const OGRO_SKIN = '/assets/quake2/ogro/igdosh.pcx'

async function bytesOf(url: string): Promise<Uint8Array> {
  return new Uint8Array(await (await fetch(url)).arrayBuffer())
}

describe('exportGLTF', () => {
  test('the .glb loads in GLTFLoader with every keyframe as a morph target, the animations and the skin', async () => {
    const model = parseMD2(await bytesOf(OGRO), { name: 'tris.MD2' })
    const skin = await new MD2SkinLoader().loadWith(OGRO_SKIN)
    const glb = await exportGLTF(model, { skin })
    expect(new TextDecoder().decode(glb.subarray(0, 4))).toBe('glTF')

    const gltf = await new GLTFLoader().parseAsync(glb.slice().buffer, '')
    let mesh: Mesh | undefined
    gltf.scene.traverse((object) => {
      if ((object as Mesh).isMesh) mesh = object as Mesh
    })
    expect(mesh).toBeDefined()
    const geometry = mesh!.geometry
    const targets = geometry.morphAttributes.position!
    expect(targets).toHaveLength(model.header.numFrames)
    // glTF stores targets as offsets from the base: base + target = each keyframe as <MD2Model> draws it.
    const reference = createMD2Geometry(model)
    const base = geometry.getAttribute('position')
    let worst = 0
    for (const frame of [0, 1, 40, 100, 198]) {
      writeMD2Frame(reference, model, frame, frame, 0)
      const want = reference.getAttribute('position').array
      const offsets = targets[frame]!
      expect(base.count).toBe(want.length / 3)
      for (let i = 0; i < base.count; i++)
        for (let k = 0; k < 3; k++)
          worst = Math.max(worst, Math.abs(base.getComponent(i, k) + offsets.getComponent(i, k) - want[i * 3 + k]!))
    }
    expect(worst).toBeLessThan(1e-4)
    expect(gltf.animations.map((clip) => clip.name)).toEqual(model.animations.map((a) => a.name))
    const run = gltf.animations.find((clip) => clip.name === 'run')!
    const animation = model.animations.find((a) => a.name === 'run')!
    expect(run.duration).toBeCloseTo((animation.end - animation.start + 1) / animation.fps, 5)

    // The skin came through as an image of the skin's size, top row first (glTF's origin).
    const map = (mesh!.material as MeshStandardMaterial).map as Texture
    expect(map).toBeTruthy()
    const image = map.image as ImageBitmap
    expect([image.width, image.height]).toEqual([model.header.skinWidth, model.header.skinHeight])
    const canvas = new OffscreenCanvas(image.width, image.height)
    const context = canvas.getContext('2d')!
    context.drawImage(image, 0, 0)
    const exported = context.getImageData(0, 0, image.width, image.height).data
    const source = skin.image as { data: Uint8Array; width: number; height: number }
    // The library keeps skins bottom row first: the exported top row is its last.
    const row = image.width * 4
    let same = 0
    for (let i = 0; i < row; i++) if (exported[i] === source.data[(image.height - 1) * row + i]) same++
    expect(same / row).toBeGreaterThan(0.99)
  })

  test('re-saved through the writer, the model parses back with the same frames', async () => {
    const bytes = await bytesOf(OGRO)
    const model = parseMD2(bytes)
    const again = parseMD2(writeMD2(model))
    expect(again.header.numFrames).toBe(model.header.numFrames)
    expect(again.frameData).toEqual(model.frameData.subarray(0, again.frameData.length))
  })

  test('a frame outside the model is a coded error', async () => {
    const model = parseMD2(await bytesOf(OGRO))
    await expect(exportGLTF(model, { frame: 500 })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' })
  })
})
