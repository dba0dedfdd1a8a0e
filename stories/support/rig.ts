/**
 * A rigged character built with three.js as Mixamo-style exports look: an armature scaled 0.01 and turned,
 * three bones, a skinned body, a rigid part hung on a bone, clips of different lengths and kinds, and a
 * base-colour texture in Quake II palette colours. Exported with three's GLTFExporter (binary), in Node
 * (its FileReader use is given Node's Blob) and in a browser alike: the Viewer story's sample and the
 * bake tests' rig.
 */
import { encode as encodePng } from 'fast-png'
import {
  AnimationClip,
  Bone,
  BoxGeometry,
  Color,
  CylinderGeometry,
  Float32BufferAttribute,
  Group,
  Mesh,
  MeshStandardMaterial,
  NumberKeyframeTrack,
  Quaternion,
  QuaternionKeyframeTrack,
  Skeleton,
  SkinnedMesh,
  Uint16BufferAttribute,
  Vector3,
  VectorKeyframeTrack,
  type Object3D,
} from 'three'
import { GLTFExporter } from 'three/examples/jsm/exporters/GLTFExporter.js'
import { packGLB, readGLB } from '../../src/core/gltf/glb'
import { QUAKE2_PALETTE } from '../../src/core/images/quake2Palette'

export const RIG_TEXTURE = { width: 64, height: 32 }
/** The texture's four quadrants, Quake II palette entries (so that PCX keeps them exactly). */
export const RIG_COLOURS = [16 * 3 + 4, 16 * 12 + 6, 16 * 13 + 2, 16 * 7 + 3]

export function rigTexturePixels(): Uint8Array {
  const { width, height } = RIG_TEXTURE
  const data = new Uint8Array(width * height * 4)
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const p = RIG_COLOURS[(y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)]!
      data.set([QUAKE2_PALETTE[p * 3]!, QUAKE2_PALETTE[p * 3 + 1]!, QUAKE2_PALETTE[p * 3 + 2]!, 255], (y * width + x) * 4)
    }
  return data
}

const turn = (axis: Vector3, degrees: number) => new Quaternion().setFromAxisAngle(axis, (degrees * Math.PI) / 180).toArray()
const X = new Vector3(1, 0, 0)
const Z = new Vector3(0, 0, 1)

export interface RigOptions {
  /** Radial and height segments of the body (more gives more vertices and triangles). */
  segments?: [number, number]
}

/** The rig's scene and clips (Walk 1 s, Wave 0.6 s, "Idle Breath" 0.35 s with a morph target). */
export function buildRig(options: RigOptions = {}): { scene: Group; clips: AnimationClip[] } {
  const [radial, rings] = options.segments ?? [8, 8]
  const scene = new Group()
  scene.name = 'Scene'
  const armature = new Group()
  armature.name = 'Armature'
  armature.scale.setScalar(0.01)
  armature.rotation.y = Math.PI / 6
  scene.add(armature)

  const hips = new Bone()
  hips.name = 'hips'
  const spine = new Bone()
  spine.name = 'spine'
  spine.position.set(0, 80, 0)
  const arm = new Bone()
  arm.name = 'arm'
  arm.position.set(20, 50, 0)
  hips.add(spine)
  spine.add(arm)
  armature.add(hips)

  // The body: a 160-unit cylinder standing on the origin, its upper half following the spine.
  const geometry = new CylinderGeometry(20, 20, 160, radial, rings)
  geometry.translate(0, 80, 0)
  const position = geometry.getAttribute('position')
  const skinIndex: number[] = []
  const skinWeight: number[] = []
  for (let i = 0; i < position.count; i++) {
    const w = Math.min(1, Math.max(0, (position.getY(i) - 40) / 80))
    skinIndex.push(0, 1, 0, 0)
    skinWeight.push(1 - w, w, 0, 0)
  }
  geometry.setAttribute('skinIndex', new Uint16BufferAttribute(skinIndex, 4))
  geometry.setAttribute('skinWeight', new Float32BufferAttribute(skinWeight, 4))
  // A morph target the Idle clip breathes with: the body 10% wider.
  const wider = new Float32Array(position.count * 3)
  for (let i = 0; i < position.count; i++) wider.set([position.getX(i) * 0.1, 0, position.getZ(i) * 0.1], i * 3)
  geometry.morphAttributes.position = [new Float32BufferAttribute(wider, 3)]
  geometry.morphTargetsRelative = true
  const material = new MeshStandardMaterial({ name: 'skin' })
  const body = new SkinnedMesh(geometry, material)
  body.name = 'body'
  body.morphTargetInfluences = [0]
  body.morphTargetDictionary = { breath: 0 }
  armature.add(body)
  armature.updateMatrixWorld(true)
  body.bind(new Skeleton([hips, spine, arm]))

  // A rigid club hung on the arm bone.
  const club = new Mesh(new BoxGeometry(10, 40, 10).translate(0, 20, 0), material)
  club.name = 'club'
  club.rotation.z = -Math.PI / 4
  arm.add(club)

  const clips = [
    new AnimationClip('Walk', 1, [
      new QuaternionKeyframeTrack('spine.quaternion', [0, 0.5, 1], [...turn(Z, 0), ...turn(Z, 25), ...turn(Z, 0)]),
      new VectorKeyframeTrack('hips.position', [0, 0.5, 1], [0, 0, 0, 0, 6, 10, 0, 0, 0]),
    ]),
    new AnimationClip('Wave', 0.6, [
      new QuaternionKeyframeTrack('arm.quaternion', [0, 0.3, 0.6], [...turn(X, 0), ...turn(X, 80), ...turn(X, 10)]),
    ]),
    new AnimationClip('Idle Breath', 0.35, [new NumberKeyframeTrack('body.morphTargetInfluences', [0, 0.35], [0, 1])]),
  ]
  return { scene, clips }
}

/** Node has Blob but not FileReader, which GLTFExporter reads its binary output with. */
function provideFileReader(): void {
  if (typeof globalThis.FileReader !== 'undefined') return
  class NodeFileReader {
    result: ArrayBuffer | string | null = null
    onloadend: (() => void) | null = null
    readAsArrayBuffer(blob: Blob) {
      void blob.arrayBuffer().then((buffer) => {
        this.result = buffer
        this.onloadend?.()
      })
    }
    readAsDataURL(blob: Blob) {
      void blob.arrayBuffer().then((buffer) => {
        let text = ''
        for (const byte of new Uint8Array(buffer)) text += String.fromCharCode(byte)
        this.result = `data:${blob.type || 'application/octet-stream'};base64,${btoa(text)}`
        this.onloadend?.()
      })
    }
  }
  ;(globalThis as { FileReader?: unknown }).FileReader = NodeFileReader
}

/**
 * The rig as a .glb by GLTFExporter, its material given the texture as an embedded PNG afterwards (the
 * exporter draws textures on a canvas, which Node lacks).
 */
export async function exportRig(scene: Object3D, clips: AnimationClip[]): Promise<Uint8Array> {
  provideFileReader()
  const exported = (await new GLTFExporter().parseAsync(scene, { binary: true, animations: clips })) as ArrayBuffer
  const png = encodePng({ ...RIG_TEXTURE, data: rigTexturePixels(), channels: 4, depth: 8 })
  const { json, bin } = readGLB(withImage(new Uint8Array(exported), png))
  json.textures = [{ source: 0 }]
  for (const material of (json.materials ?? []) as { pbrMetallicRoughness?: Record<string, unknown> }[])
    material.pbrMetallicRoughness = { ...material.pbrMetallicRoughness, baseColorTexture: { index: 0 } }
  return packGLB(json, bin)
}

/** The .glb with `image` appended to its binary chunk as its only image (and its MIME type). */
export function withImage(glb: Uint8Array, image: Uint8Array, mimeType = 'image/png'): Uint8Array {
  const { json, bin } = readGLB(glb)
  const offset = Math.ceil(bin.length / 4) * 4
  const joined = new Uint8Array(offset + image.length)
  joined.set(bin)
  joined.set(image, offset)
  const views = json.bufferViews as object[]
  views.push({ buffer: 0, byteOffset: offset, byteLength: image.length })
  json.images = [{ bufferView: views.length - 1, mimeType }]
  ;(json.buffers as { byteLength: number }[])[0]!.byteLength = joined.length
  return packGLB(json, joined)
}

/** The painted rig's club colour (linear, as glTF's base-colour factor). */
export const PAINT = [0.8, 0.08, 0.05] as const
/** The painted rig's hat: one vertex colour per face (linear). */
export const HAT_FACES = [
  [1, 0.5, 0],
  [0, 0.6, 0.2],
  [0.1, 0.2, 1],
  [1, 1, 0],
  [0.5, 0, 0.5],
  [0.9, 0.9, 0.9],
] as const

/**
 * The rig coloured as real characters are, in several ways at once: its body textured (or, with `texture:
 * false`, a plain material coloured by its factor), its club painted by its material's base colour, and a hat on
 * the spine (a cap on its top) coloured by vertex colours, a colour a face. As a `.glb`.
 */
export async function exportPaintedRig(options: { texture?: boolean } = {}): Promise<Uint8Array> {
  const { scene, clips } = buildRig()
  let spine: Object3D | undefined
  scene.traverse((node) => {
    if (node.name === 'club') (node as Mesh).material = new MeshStandardMaterial({ name: 'paint', color: new Color(...PAINT) })
    if (node.name === 'body' && options.texture === false)
      (node as Mesh).material = new MeshStandardMaterial({ name: 'skin', color: new Color(0.2, 0.35, 0.6) })
    if (node.name === 'spine') spine = node
  })
  // A cap on the body's top (the spine bone stands 80 below it).
  const box = new BoxGeometry(46, 16, 46).translate(0, 88, 0)
  const colours: number[] = []
  for (let face = 0; face < 6; face++) for (let k = 0; k < 4; k++) colours.push(...HAT_FACES[face]!)
  box.setAttribute('color', new Float32BufferAttribute(colours, 3))
  const hat = new Mesh(box, new MeshStandardMaterial({ name: 'hat', vertexColors: true }))
  hat.name = 'hat'
  spine!.add(hat)
  const glb = await exportRig(scene, clips)
  // exportRig gives every material the texture: the body's only, or none.
  const { json, bin } = readGLB(glb)
  for (const material of json.materials as { name: string; pbrMetallicRoughness: Record<string, unknown> }[])
    if (material.name !== 'skin' || options.texture === false) delete material.pbrMetallicRoughness.baseColorTexture
  if (options.texture === false) {
    delete json.textures
    delete json.images
  }
  return packGLB(json, bin)
}
