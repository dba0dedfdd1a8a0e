/**
 * Converted characters look like their source: each character (coloured by a texture, by material colours and
 * vertex colours, and by all of them) loaded by three's GLTFLoader with the browser decoding its textures,
 * converted in the page by `convertToMD2` (what `react-three-md2 convert` runs), then drawn unlit by three's
 * WebGLRenderer from the front, the side and the back, source and model alike. Colour difference is CIEDE2000
 * over the pixels both draw; the skin as full-colour TGA measures the bake, as a PCX in Quake II's palette the
 * palette's own cost, apart.
 */
import {
  Box3,
  Group,
  Mesh,
  MeshBasicMaterial,
  NearestFilter,
  OrthographicCamera,
  Scene,
  Vector3,
  WebGLRenderer,
  type Material,
  type Object3D,
  type Texture,
} from 'three'
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { describe, expect, test } from 'vitest'
import { convertToMD2, createSkinTexture, decodePCX, decodeTGA, parseMD2 } from '../../src/index'
import { deltaE2000, srgb8ToLab } from '../../src/core/images/colorLab'
import { QUAKE2_PALETTE } from '../../src/core/images/quake2Palette'
import { createMD2Geometry, writeMD2Frame } from '../../src/three/mesh/MD2Geometry'
import { buildRig, exportPaintedRig, exportRig } from '../../stories/support/rig'

const SIZE = 160
const SCALE = 30
/** Front, side, back. */
const VIEWS = [0, 90, 180]

const characters: [string, () => Promise<Uint8Array>][] = [
  ['coloured by a texture', () => exportRig(buildRig().scene, buildRig().clips)],
  ['coloured by material colours and vertex colours', () => exportPaintedRig({ texture: false })],
  ['coloured by a texture, material colours and vertex colours', () => exportPaintedRig()],
]

/** Unlit, nearest texels (as Quake II's software renderer samples a skin): the colours alone. */
function unlit(material: Material): MeshBasicMaterial {
  const { map, color, vertexColors } = material as Material & {
    map: Texture | null
    color: MeshBasicMaterial['color']
    vertexColors: boolean
  }
  if (map) map.magFilter = map.minFilter = NearestFilter
  if (map) map.generateMipmaps = false
  if (map) map.needsUpdate = true
  return new MeshBasicMaterial({ map, color, vertexColors })
}

function pictures(renderer: WebGLRenderer, object: Object3D, box: Box3): Uint8Array[] {
  const scene = new Scene()
  scene.add(object)
  const centre = box.getCenter(new Vector3())
  const half = (Math.max(...box.getSize(new Vector3()).toArray()) / 2) * 1.1
  const camera = new OrthographicCamera(-half, half, half, -half, 0.1, half * 20)
  return VIEWS.map((degrees) => {
    const yaw = (degrees * Math.PI) / 180
    camera.position.set(centre.x + Math.sin(yaw) * half * 5, centre.y, centre.z + Math.cos(yaw) * half * 5)
    camera.lookAt(centre)
    renderer.render(scene, camera)
    const gl = renderer.getContext()
    const pixels = new Uint8Array(SIZE * SIZE * 4)
    gl.readPixels(0, 0, SIZE, SIZE, gl.RGBA, gl.UNSIGNED_BYTE, pixels)
    return pixels
  })
}

/**
 * The palette's own cost: the mean CIEDE2000 from each drawn pixel of `picture` to its nearest colour in Quake
 * II's palette (the transparent 255 left out), what no skin in the palette can do better than.
 */
function paletteCost(picture: Uint8Array): number {
  const lab = new Float64Array(6)
  const nearest = new Map<number, number>()
  let sum = 0
  let count = 0
  for (let i = 0; i < picture.length; i += 4) {
    if (picture[i + 3] === 0) continue
    const key = (picture[i]! << 16) | (picture[i + 1]! << 8) | picture[i + 2]!
    let best = nearest.get(key)
    if (best === undefined) {
      best = Infinity
      srgb8ToLab(picture[i]!, picture[i + 1]!, picture[i + 2]!, lab, 0)
      for (let p = 0; p < 255; p++) {
        srgb8ToLab(QUAKE2_PALETTE[p * 3]!, QUAKE2_PALETTE[p * 3 + 1]!, QUAKE2_PALETTE[p * 3 + 2]!, lab, 3)
        best = Math.min(best, deltaE2000(lab[0]!, lab[1]!, lab[2]!, lab[3]!, lab[4]!, lab[5]!))
      }
      nearest.set(key, best)
    }
    sum += best
    count++
  }
  return sum / Math.max(1, count)
}

/** Mean CIEDE2000 over the pixels both pictures draw, and how much of either's drawing the other lacks. */
function compare(a: Uint8Array, b: Uint8Array): { mean: number; both: number; apart: number } {
  const lab = new Float64Array(6)
  let sum = 0
  let both = 0
  let apart = 0
  for (let i = 0; i < a.length; i += 4) {
    const inA = a[i + 3]! > 0
    const inB = b[i + 3]! > 0
    if (inA !== inB) apart++
    if (!inA || !inB) continue
    srgb8ToLab(a[i]!, a[i + 1]!, a[i + 2]!, lab, 0)
    srgb8ToLab(b[i]!, b[i + 1]!, b[i + 2]!, lab, 3)
    sum += deltaE2000(lab[0]!, lab[1]!, lab[2]!, lab[3]!, lab[4]!, lab[5]!)
    both++
  }
  return { mean: sum / Math.max(1, both), both, apart: apart / Math.max(1, both) }
}

describe('converted characters look like their source, drawn unlit from three sides', () => {
  test.each(characters)('%s', async (what, exported) => {
    const glb = await exported()
    const canvas = document.createElement('canvas')
    const renderer = new WebGLRenderer({ canvas, preserveDrawingBuffer: true, antialias: false })
    renderer.setPixelRatio(1)
    renderer.setSize(SIZE, SIZE, false)
    renderer.setClearColor(0x000000, 0)
    try {
      const source = await new GLTFLoader().parseAsync(glb.slice().buffer, '')
      const shown = await new GLTFLoader().parseAsync(glb.slice().buffer, '')
      shown.scene.traverse((node) => {
        const mesh = node as Mesh
        if (mesh.isMesh) mesh.material = Array.isArray(mesh.material) ? mesh.material.map(unlit) : unlit(mesh.material)
      })
      const holder = new Group()
      holder.scale.setScalar(SCALE)
      holder.add(shown.scene)
      holder.updateMatrixWorld(true)
      const box = new Box3().setFromObject(holder, true)
      const want = pictures(renderer, holder, box)

      const figures: string[] = []
      for (const skinFormat of ['tga', 'pcx'] as const) {
        // The pose as it stands (no clip): the source's own.
        const converted = convertToMD2(source.scene, [], { scale: SCALE, skinName: `character.${skinFormat}`, skinFormat })
        expect(converted.skin, 'a skin is written').toBeDefined()
        const model = parseMD2(converted.data)
        const geometry = createMD2Geometry(model)
        writeMD2Frame(geometry, model, 0, 0, 0)
        const image = skinFormat === 'tga' ? decodeTGA(converted.skin!.data) : decodePCX(converted.skin!.data)
        const skin = createSkinTexture(image)
        const mesh = new Mesh(geometry, new MeshBasicMaterial({ map: skin }))
        const drawn = pictures(renderer, mesh, box)
        const views = VIEWS.map((_, v) => compare(want[v]!, drawn[v]!))
        const mean = views.reduce((sum, view) => sum + view.mean, 0) / views.length
        figures.push(
          `${skinFormat}: mean ΔE ${mean.toFixed(2)} (${views.map((view) => view.mean.toFixed(2)).join(' / ')}), ` +
            `silhouettes apart ${(Math.max(...views.map((view) => view.apart)) * 100).toFixed(1)}%`,
        )
        for (const view of views) {
          expect(view.both).toBeGreaterThan(SIZE * SIZE * 0.05)
          expect(view.apart).toBeLessThan(0.1)
        }
        // The bake's own cost in full colour; in Quake II's palette, within a step of the palette's own cost.
        const floor = want.reduce((sum, picture) => sum + paletteCost(picture), 0) / want.length
        if (skinFormat === 'pcx') figures.push(`the palette's own cost ${floor.toFixed(2)}`)
        expect(mean).toBeLessThan(skinFormat === 'tga' ? 2 : floor + 1)
        skin.dispose()
        geometry.dispose()
      }
      console.log(`${what}: ${figures.join('; ')}`)
    } finally {
      renderer.dispose()
    }
  })
})
