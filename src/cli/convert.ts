import { decode as decodePng } from 'fast-png'
import {
  DataTexture,
  Matrix3,
  Matrix4,
  Texture,
  type BufferAttribute,
  type BufferGeometry,
  type InterleavedBufferAttribute,
  type Mesh,
} from 'three'
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js'
import { isMD2Error, MD2Error } from '../core/MD2Error.js'
import { parseMD2 } from '../core/format/parseMD2.js'
import { QUAKE2_FPS } from '../core/format/spec.js'
import type { MD2AnimationDef } from '../core/format/types.js'
import { writeMD2 } from '../core/format/writeMD2.js'
import { packGLB, readGLB, type GLBContents } from '../core/gltf/glb.js'
import { writeGLB } from '../core/gltf/writeGLB.js'
import { sniffImageType, type DecodedImage } from '../core/images/decodedImage.js'
import { encodePCX } from '../core/images/encodePCX.js'
import { encodeTGA } from '../core/images/encodeTGA.js'
import { encodePNG } from '../core/images/png.js'
import { decodePCX } from '../core/images/pcx.js'
import { skinCandidates } from '../core/images/skinPaths.js'
import { decodeTGA } from '../core/images/tga.js'
import { bakeMD2 } from '../three/convert/bakeMD2.js'
import { md2FromGeometry } from '../three/convert/md2FromGeometry.js'
import { EXIT_FAILED, EXIT_OK, UsageError, describeError, describeFileError, folderOf, type CliIO, type Parsed } from './common.js'

export const CONVERT_USAGE = `Usage: react-three-md2 convert IN OUT [options]

The formats come from the extensions:
  .md2 → .glb or .gltf   a mesh with a morph target per keyframe, a clip per animation and the skin
                         embedded as PNG (the model's first skin found next to it, or --skin)
  .glb, .gltf → .md2     a skinned or animated scene, or several meshes: baked to keyframes (every
                         visible mesh merged, each clip sampled from its start to its end, frames
                         named after it: run01, run02, …), the base-colour texture written as the
                         skin beside OUT (OUT.pcx by default);
                         one mesh with morph targets and no skin: its morph targets become the frames
                         (the base mesh alone when it has none), clips that step through them the
                         animations
  .obj → .md2            one frame

Options:
  --skin FILE            the skin to embed (.pcx, .tga or .png), instead of the model's own; for .md2
                         output from a baked glTF, the skin to write instead of its texture
  --skin-size WxH        the skin size the texture coordinates are measured in, for .md2 output
                         (default: the embedded image's size, else 256x256)
  --fps N                keyframes per second a clip is sampled at (default 10, Quake II's rate;
                         another rate is written in OUT.anm, as UFO:AI keeps animation tables)
  --clips A,B            bake these clips only, in this order (default: all)
  --mesh NAME            bake this mesh (or the meshes under this node) only; repeat for more
  --scale S              multiply positions (Quake II's players stand about 56 units tall)
  --skin-format FORMAT   pcx (default: 8-bit in Quake II's palette, as the engine loads it), tga or png
  -h, --help             show this help

A baked model must fit MD2 as Quake II loads it: at most 2,048 vertices, 4,096 triangles and 512 frames;
past one, convert says which and by how much (and, for frames, a rate that fits). In Node, a JPEG
texture cannot be decoded: the skin is then left out with a note (--skin FILE gives one).
`

/** Animations a glTF clip cannot express as an MD2 range are skipped with a note. */
type Kind = 'md2' | 'glb' | 'gltf' | 'obj'

function kindOf(path: string): Kind | undefined {
  const match = /\.(md2|glb|gltf|obj)$/i.exec(path)
  return match ? (match[1]!.toLowerCase() as Kind) : undefined
}

function read(path: string, io: CliIO): Uint8Array {
  try {
    return io.readFile(path)
  } catch (error) {
    throw new CliFailure(`${path}: cannot read: ${describeFileError(error)}`)
  }
}

/** A failure already worded for the user: one line, exit 1. */
class CliFailure extends Error {}

export async function convert(parsed: Parsed, io: CliIO): Promise<number> {
  if (parsed.help) {
    io.stdout(CONVERT_USAGE)
    return EXIT_OK
  }
  const [input, output, ...extra] = parsed.files
  if (input === undefined || output === undefined) throw new UsageError('convert needs IN and OUT')
  if (extra.length > 0) throw new UsageError(`convert takes IN and OUT, got ${parsed.files.length} files`)
  const from = kindOf(input)
  const to = kindOf(output)
  if (!from) throw new UsageError(`${input}: convert reads .md2, .glb, .gltf or .obj`)
  if (!to) throw new UsageError(`${output}: convert writes .md2, .glb or .gltf`)
  if (from === 'md2' ? to === 'md2' || to === 'obj' : to !== 'md2')
    throw new UsageError(`convert turns .md2 into .glb/.gltf, or .glb/.gltf/.obj into .md2; not .${from} into .${to}`)
  try {
    const data = from === 'md2' ? toGLTF(input, output, to as 'glb' | 'gltf', parsed, io) : await toMD2(input, from, output, parsed, io)
    try {
      io.writeFile(output, data)
    } catch (error) {
      throw new CliFailure(`${output}: cannot write: ${describeFileError(error)}`)
    }
    return EXIT_OK
  } catch (error) {
    if (error instanceof CliFailure) io.stderr(`${error.message}\n`)
    else if (isMD2Error(error)) io.stderr(`${error.file ?? input}: ${describeError(error)}\n`)
    else throw error
    return EXIT_FAILED
  }
}

// .md2 → glTF

function toGLTF(input: string, output: string, to: 'glb' | 'gltf', parsed: Parsed, io: CliIO): Uint8Array {
  const model = parseMD2(read(input, io), { name: input })
  for (const warning of model.warnings) io.stderr(`${input}: warning: ${warning}\n`)
  const skin =
    parsed.skin !== undefined
      ? { path: parsed.skin, image: decodeSkin(parsed.skin, read(parsed.skin, io)) }
      : findSkin(input, model.skins, io)
  if (model.header.numFrames > 50) io.stderr(`${input}: writing ${model.header.numFrames} keyframes…\n`)
  const glb = writeGLB(model, { skin: skin?.image })
  const data = to === 'glb' ? glb : embeddedGLTF(readGLB(glb))
  io.stdout(
    `wrote ${output}: ${data.byteLength} bytes, ${model.header.numFrames} keyframes as morph targets, ` +
      `${model.animations.length} animation${model.animations.length === 1 ? '' : 's'}, ` +
      (skin ? `skin ${skin.image.width}×${skin.image.height} from ${skin.path}` : 'no skin') +
      '\n',
  )
  return data
}

/** The first of the model's skins found next to it (or at its game path below the model's folder). */
function findSkin(input: string, skins: readonly string[], io: CliIO): { path: string; image: DecodedImage } | undefined {
  const tried: string[] = []
  for (const name of skins) {
    for (const candidate of skinCandidates(input, name)) {
      if (!/\.(pcx|tga|png)$/i.test(candidate) || tried.includes(candidate)) continue
      tried.push(candidate)
      if (io.exists(candidate)) return { path: candidate, image: decodeSkin(candidate, read(candidate, io)) }
    }
  }
  io.stderr(
    `${input}: no skin found${tried.length > 0 ? ` (looked for ${tried.slice(0, 4).join(', ')}${tried.length > 4 ? ', …' : ''})` : ''}; writing without one (--skin FILE names one)\n`,
  )
  return undefined
}

function decodeSkin(path: string, bytes: Uint8Array, type = /\.(pcx|tga|png)$/i.exec(path)?.[1]?.toLowerCase()): DecodedImage {
  if (type === 'pcx') return decodePCX(bytes, { name: path })
  if (type === 'tga') return decodeTGA(bytes, { name: path })
  if (type === 'png') {
    let png: ReturnType<typeof decodePng>
    try {
      png = decodePng(bytes)
    } catch (error) {
      throw new MD2Error('BAD_IMAGE', `not a PNG image (${error instanceof Error ? error.message : String(error)})`, {
        section: 'png',
        file: path,
      })
    }
    const { width, height, channels, depth, palette } = png
    if (depth !== 8 || palette)
      throw new MD2Error('BAD_IMAGE', `${depth}-bit${palette ? ' paletted' : ''} PNG: convert embeds 8-bit RGB or RGBA`, {
        section: 'png',
        file: path,
      })
    const rgba = new Uint8Array(width * height * 4)
    for (let i = 0, n = width * height; i < n; i++) {
      const s = i * channels
      const grey = channels < 3
      rgba[i * 4] = png.data[s]!
      rgba[i * 4 + 1] = png.data[grey ? s : s + 1]!
      rgba[i * 4 + 2] = png.data[grey ? s : s + 2]!
      rgba[i * 4 + 3] = channels === 4 ? png.data[s + 3]! : channels === 2 ? png.data[s + 1]! : 255
    }
    return { width, height, data: rgba }
  }
  throw new CliFailure(`${path}: --skin takes a .pcx, .tga or .png image`)
}

/** A `.gltf` (JSON) with its one buffer embedded as a data URI. */
function embeddedGLTF({ json, bin }: GLBContents): Uint8Array {
  const buffers = json.buffers as { byteLength: number; uri?: string }[]
  buffers[0]!.uri = `data:application/octet-stream;base64,${toBase64(bin)}`
  return new TextEncoder().encode(JSON.stringify(json, null, 1))
}

function toBase64(bytes: Uint8Array): string {
  let text = ''
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(text)
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

// glTF or OBJ → .md2

async function toMD2(input: string, from: 'glb' | 'gltf' | 'obj', output: string, parsed: Parsed, io: CliIO): Promise<Uint8Array> {
  const bytes = read(input, io)
  const contents = from === 'obj' ? undefined : from === 'glb' ? readGLB(bytes, { name: input }) : gltfContents(input, bytes, io)
  const baking = contents !== undefined && needsBaking(contents.json, parsed)
  if (!baking) {
    const given = ['--fps', '--clips', '--mesh', '--scale', '--skin-format'].filter(
      (_, i) => [parsed.fps, parsed.clips, parsed.meshes[0], parsed.scale, parsed.skinFormat][i] !== undefined,
    )
    if (given.length > 0) throw new UsageError(`${given.join(', ')}: for glTF scenes baked to .md2 only`)
  }
  if (contents && baking) return bakeGLTF(input, contents, output, parsed, io)
  const source = contents === undefined ? meshFromOBJ(input, bytes) : await meshFromGLTF(input, contents, io)
  const [skinWidth, skinHeight] = parsed.skinSize !== undefined ? sizeOf(parsed.skinSize) : (source.imageSize ?? [256, 256])
  const name = output.replace(/^.*[/\\]/, '')
  const model = md2FromGeometry(source.geometry, {
    skinWidth,
    skinHeight,
    frameNames: source.frameNames,
    ...(source.animations.length > 0 ? { animations: source.animations } : {}),
    name,
  })
  source.geometry.dispose()
  const data = writeMD2(model)
  const written = parseMD2(data, { name: output })
  io.stdout(
    `wrote ${output}: ${data.byteLength} bytes, ${written.header.numFrames} frame${written.header.numFrames === 1 ? '' : 's'}, ` +
      `${written.header.numVertices} vertices, ${written.header.numTris} triangles, ${written.animations.length} animation${written.animations.length === 1 ? '' : 's'}, ` +
      `skin size ${skinWidth}×${skinHeight}\n`,
  )
  for (const warning of written.warnings) io.stderr(`${output}: warning: ${warning}\n`)
  return data
}

function sizeOf(text: string): [number, number] {
  const match = /^(\d+)x(\d+)$/i.exec(text)
  const size = match ? ([Number(match[1]), Number(match[2])] as [number, number]) : undefined
  if (!size || size[0] < 1 || size[1] < 1 || size[0] > 4096 || size[1] > 4096)
    throw new UsageError(`--skin-size takes WxH (1 to 4096), got "${text}"`)
  return size
}

interface MeshSource {
  geometry: BufferGeometry
  frameNames: string[] | undefined
  animations: MD2AnimationDef[]
  imageSize: [number, number] | undefined
}

function meshFromOBJ(input: string, bytes: Uint8Array): MeshSource {
  const group = new OBJLoader().parse(new TextDecoder().decode(bytes))
  const meshes: Mesh[] = []
  group.traverse((object) => {
    if ((object as Mesh).isMesh) meshes.push(object as Mesh)
  })
  const mesh = meshes[0]
  if (!mesh) throw new MD2Error('EMPTY', 'the OBJ file holds no faces', { file: input })
  // OBJ texture coordinates run upward, as three.js's do.
  return { geometry: mesh.geometry.clone(), frameNames: undefined, animations: [], imageSize: undefined }
}

/** A `.gltf` and the buffers it names (data URIs or files next to it) as one binary chunk. */
function gltfContents(input: string, bytes: Uint8Array, io: CliIO): GLBContents {
  let json: Record<string, unknown>
  try {
    json = JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>
  } catch (error) {
    throw new MD2Error('BAD_MAGIC', `not a glTF JSON file (${error instanceof Error ? error.message : String(error)})`, {
      section: 'gltf',
      file: input,
    })
  }
  const load = (uri: string): Uint8Array => {
    const data = /^data:[^,]*;base64,(.*)$/s.exec(uri)
    if (data) return fromBase64(data[1]!)
    if (/^[a-z][a-z0-9+.-]*:/i.test(uri) || uri.startsWith('/')) throw new CliFailure(`${input}: buffer "${uri}" is not a file next to it`)
    return read(folderOf(input) + decodeURIComponent(uri), io)
  }
  const buffers = (json.buffers as { uri?: string }[] | undefined) ?? []
  const offsets: number[] = []
  const parts: Uint8Array[] = []
  let length = 0
  for (const buffer of buffers) {
    const data = buffer.uri !== undefined ? load(buffer.uri) : new Uint8Array(0)
    offsets.push(length)
    parts.push(data)
    length += Math.ceil(data.length / 4) * 4
  }
  const bin = new Uint8Array(length)
  parts.forEach((part, i) => bin.set(part, offsets[i]!))
  for (const view of (json.bufferViews as { buffer: number; byteOffset?: number }[] | undefined) ?? []) {
    view.byteOffset = (view.byteOffset ?? 0) + (offsets[view.buffer] ?? 0)
    view.buffer = 0
  }
  for (const image of (json.images as { uri?: string; bufferView?: number; mimeType?: string }[] | undefined) ?? []) {
    if (image.uri === undefined) continue
    // Only its size is read (PNG header): an image that cannot be had is left out.
    try {
      const data = load(image.uri)
      imageBytes.set(image, data)
    } catch {
      // the skin size then comes from --skin-size or the default
    }
    delete image.uri
  }
  json.buffers = [{ byteLength: length }]
  return { json, bin }
}

/** Bytes of images given by URI in a `.gltf`, looked at for their size only. */
const imageBytes = new WeakMap<object, Uint8Array>()

async function meshFromGLTF(input: string, { json, bin }: GLBContents, io: CliIO): Promise<MeshSource> {
  const imageSize = firstImageSize(json, bin)
  dropImages(json)
  const required = (json.extensionsRequired as string[] | undefined) ?? []
  const unsupported = required.filter((name) => !/^KHR_(texture_transform|texture_basisu|materials_)|^EXT_texture_(webp|avif)$/.test(name))
  if (unsupported.length > 0) throw new CliFailure(`${input}: needs ${unsupported.join(', ')}, which convert does not decode`)
  json.extensionsRequired = []
  let gltf: Awaited<ReturnType<GLTFLoader['parseAsync']>>
  try {
    gltf = await new GLTFLoader().parseAsync(packGLB(json, bin).slice().buffer, '')
  } catch (error) {
    throw new CliFailure(`${input}: the glTF loader refused it: ${error instanceof Error ? error.message : String(error)}`)
  }
  const meshes: Mesh[] = []
  gltf.scene.updateMatrixWorld(true)
  gltf.scene.traverse((object) => {
    if ((object as Mesh).isMesh) meshes.push(object as Mesh)
  })
  const mesh = meshes[0]
  if (!mesh) throw new MD2Error('EMPTY', 'the glTF file holds no mesh', { file: input })
  if (meshes.length > 1) io.stderr(`${input}: ${meshes.length} meshes; converting the first, "${mesh.name}"\n`)
  const geometry = mesh.geometry.clone()
  placeInWorld(geometry, mesh.matrixWorld)
  // glTF's texture origin is the top-left corner; MD2 geometry is given in three.js's (v runs upward).
  const uv = geometry.getAttribute('uv') as BufferAttribute | undefined
  if (uv) for (let i = 0; i < uv.count; i++) uv.setY(i, 1 - uv.getY(i))
  const dictionary = mesh.morphTargetDictionary
  const targets = geometry.morphAttributes.position?.length ?? 0
  const frameNames = dictionary && targets > 0 ? namesByIndex(dictionary, targets) : undefined
  const animations: MD2AnimationDef[] = []
  if (targets > 0)
    for (const clip of gltf.animations) {
      const range = keyframeRange(clip, targets)
      if (range) animations.push(range)
      else io.stderr(`${input}: animation "${clip.name}" does not step through keyframes in order; left out\n`)
    }
  return { geometry, frameNames, animations, imageSize }
}

/** Geometry and animation only: images need a browser to decode, and MD2 keeps its skin apart. */
export function dropImages(json: Record<string, unknown>): void {
  delete json.images
  delete json.textures
  delete json.samplers
  type Material = {
    normalTexture?: unknown
    occlusionTexture?: unknown
    emissiveTexture?: unknown
    extensions?: unknown
    pbrMetallicRoughness?: { baseColorTexture?: unknown; metallicRoughnessTexture?: unknown }
  }
  for (const material of (json.materials as Material[] | undefined) ?? []) {
    delete material.normalTexture
    delete material.occlusionTexture
    delete material.emissiveTexture
    delete material.extensions
    delete material.pbrMetallicRoughness?.baseColorTexture
    delete material.pbrMetallicRoughness?.metallicRoughnessTexture
  }
}

/** Morph targets are offsets in the mesh's own space: bring them, and the base, into the scene's. */
function placeInWorld(geometry: BufferGeometry, matrix: Matrix4): void {
  if (matrix.equals(new Matrix4())) return
  const linear = new Matrix3().setFromMatrix4(matrix)
  const normalMatrix = new Matrix3().getNormalMatrix(matrix)
  geometry.applyMatrix4(matrix)
  const transform = (attribute: BufferAttribute | InterleavedBufferAttribute, m: Matrix3, normalize: boolean) => {
    for (let i = 0; i < attribute.count; i++) {
      const x = attribute.getX(i),
        y = attribute.getY(i),
        z = attribute.getZ(i)
      const e = m.elements
      let nx = e[0]! * x + e[3]! * y + e[6]! * z
      let ny = e[1]! * x + e[4]! * y + e[7]! * z
      let nz = e[2]! * x + e[5]! * y + e[8]! * z
      if (normalize) {
        const length = Math.hypot(nx, ny, nz) || 1
        nx /= length
        ny /= length
        nz /= length
      }
      attribute.setXYZ(i, nx, ny, nz)
    }
  }
  const relative = geometry.morphTargetsRelative
  for (const target of geometry.morphAttributes.position ?? []) transform(target, linear, false)
  // Relative normal offsets are not unit vectors; absolute ones are renormalised.
  for (const target of geometry.morphAttributes.normal ?? []) transform(target, normalMatrix, !relative)
}

function namesByIndex(dictionary: Record<string, number>, count: number): string[] {
  const names = Array.from({ length: count }, (_, i) => `frame${String(i).padStart(3, '0')}`)
  for (const [name, index] of Object.entries(dictionary)) if (index < count) names[index] = name
  return names
}

/**
 * An animation as an MD2 range, when its clip is what MD2 animations look like: keys at a constant rate,
 * each showing one keyframe at full weight, stepping by one (and maybe back to the first to loop).
 */
function keyframeRange(
  clip: { name: string; tracks: { name: string; times: ArrayLike<number>; values: ArrayLike<number> }[] },
  targets: number,
): MD2AnimationDef | undefined {
  const track = clip.tracks.find((t) => t.name.endsWith('.morphTargetInfluences'))
  if (!track || clip.tracks.length !== 1) return undefined
  const keys = track.times.length
  if (keys < 1 || track.values.length !== keys * targets) return undefined
  const shown: number[] = []
  for (let k = 0; k < keys; k++) {
    let frame = -1
    for (let f = 0; f < targets; f++) {
      const w = track.values[k * targets + f]!
      if (Math.abs(w - 1) < 1e-4) {
        if (frame >= 0) return undefined
        frame = f
      } else if (Math.abs(w) > 1e-4) return undefined
    }
    if (frame < 0) return undefined
    shown.push(frame)
  }
  const start = shown[0]!
  let end = start
  for (let k = 1; k < keys; k++) {
    if (shown[k] === end + 1) end++
    else if (k === keys - 1 && shown[k] === start) break
    else return undefined
  }
  const step = keys > 1 ? track.times[1]! - track.times[0]! : 0.1
  for (let k = 1; k < keys; k++) if (Math.abs(track.times[k]! - track.times[k - 1]! - step) > 1e-4) return undefined
  return { name: clip.name, start, end, fps: Math.round((1 / step) * 1000) / 1000 }
}

/** The size of the first image when it is a PNG (width and height sit in its IHDR chunk). */
function firstImageSize(json: Record<string, unknown>, bin: Uint8Array): [number, number] | undefined {
  const image = (json.images as { bufferView?: number }[] | undefined)?.[0]
  if (!image) return undefined
  let bytes = imageBytes.get(image)
  if (!bytes && image.bufferView !== undefined) {
    const view = (json.bufferViews as { byteOffset?: number; byteLength: number }[] | undefined)?.[image.bufferView]
    if (view) bytes = bin.subarray(view.byteOffset ?? 0, (view.byteOffset ?? 0) + view.byteLength)
  }
  if (!bytes || bytes.length < 24 || bytes[1] !== 0x50 || bytes[2] !== 0x4e || bytes[3] !== 0x47) return undefined
  const view = new DataView(bytes.buffer, bytes.byteOffset, 24)
  return [view.getUint32(16), view.getUint32(20)]
}

// Skinned or animated glTF → .md2, baked

/**
 * Baked rather than read as morph targets: a skin, node animation, several meshes, or a bake option given.
 * A single morphed mesh whose clips step through its targets keeps its frames as they are.
 */
function needsBaking(json: Record<string, unknown>, parsed: Parsed): boolean {
  if (parsed.fps !== undefined || parsed.clips !== undefined || parsed.meshes.length > 0 || parsed.scale !== undefined) return true
  if (parsed.skinFormat !== undefined) return true
  if (((json.skins as unknown[] | undefined) ?? []).length > 0) return true
  const nodes = (json.nodes as { mesh?: number }[] | undefined) ?? []
  if (nodes.filter((node) => node.mesh !== undefined).length > 1) return true
  type Animation = { channels?: { target?: { path?: string } }[] }
  return ((json.animations as Animation[] | undefined) ?? []).some((animation) =>
    (animation.channels ?? []).some((channel) => channel.target?.path !== 'weights'),
  )
}

function numberOption(name: string, text: string | undefined, check: (value: number) => boolean, what: string): number | undefined {
  if (text === undefined) return undefined
  const value = Number(text)
  if (text.trim() === '' || !Number.isFinite(value) || !check(value)) throw new UsageError(`${name} takes ${what}, got "${text}"`)
  return value
}

/** Node cannot draw images: the loader is handed the glTF's PNG textures decoded here (JPEG and others are not). */
function nodeTextures(json: Record<string, unknown>, bin: Uint8Array, input: string) {
  type TextureDef = { source?: number; extensions?: Record<string, { source?: number }> }
  type ImageDef = { bufferView?: number; mimeType?: string }
  return () => ({
    name: 'react-three-md2:node-textures',
    loadTexture(index: number): Promise<Texture> {
      const def = ((json.textures as TextureDef[] | undefined) ?? [])[index] ?? {}
      const source = def.source ?? Object.values(def.extensions ?? {}).find((ext) => ext.source !== undefined)?.source
      const image = source === undefined ? undefined : ((json.images as ImageDef[] | undefined) ?? [])[source]
      let bytes = image ? imageBytes.get(image) : undefined
      if (!bytes && image?.bufferView !== undefined) {
        const view = (json.bufferViews as { byteOffset?: number; byteLength: number }[] | undefined)?.[image.bufferView]
        if (view) bytes = bin.subarray(view.byteOffset ?? 0, (view.byteOffset ?? 0) + view.byteLength)
      }
      const type = bytes ? sniffImageType(bytes) : undefined
      if (!bytes || type !== 'png') {
        const texture = new Texture()
        texture.userData.undecoded = bytes ? (type ?? image?.mimeType ?? 'an unknown format').toUpperCase() : 'missing'
        return Promise.resolve(texture)
      }
      const decoded = decodeSkin(`${input} (image ${source})`, bytes, 'png')
      const texture = new DataTexture(decoded.data, decoded.width, decoded.height)
      texture.flipY = false
      texture.needsUpdate = true
      return Promise.resolve(texture)
    },
  })
}

async function bakeGLTF(input: string, { json, bin }: GLBContents, output: string, parsed: Parsed, io: CliIO): Promise<Uint8Array> {
  const fps = numberOption('--fps', parsed.fps, (v) => v > 0 && v <= 1000, 'a rate above 0, up to 1000')
  const scale = numberOption('--scale', parsed.scale, (v) => v > 0, 'a positive number')
  const format = (parsed.skinFormat ?? 'pcx').toLowerCase()
  if (format !== 'pcx' && format !== 'tga' && format !== 'png')
    throw new UsageError(`--skin-format takes pcx, tga or png, got "${parsed.skinFormat}"`)
  const clips = parsed.clips
    ?.split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
  const required = (json.extensionsRequired as string[] | undefined) ?? []
  const unsupported = required.filter(
    (name) => !/^KHR_(texture_transform|materials_)|^EXT_texture_(webp|avif)$|^KHR_texture_basisu$/.test(name),
  )
  if (unsupported.length > 0) throw new CliFailure(`${input}: needs ${unsupported.join(', ')}, which convert does not decode`)
  json.extensionsRequired = []
  const loader = new GLTFLoader().register(nodeTextures(json, bin, input))
  let gltf: Awaited<ReturnType<GLTFLoader['parseAsync']>>
  try {
    gltf = await loader.parseAsync(packGLB(json, bin).slice().buffer, '')
  } catch (error) {
    throw new CliFailure(`${input}: the glTF loader refused it: ${error instanceof Error ? error.message : String(error)}`)
  }
  const skinFile = output.replace(/\.md2$/i, '') + '.' + format
  const skinName = skinFile.replace(/^.*[/\\]/, '')
  const given = parsed.skin !== undefined ? decodeSkin(parsed.skin, read(parsed.skin, io)) : undefined
  const [skinWidth, skinHeight] = parsed.skinSize !== undefined ? sizeOf(parsed.skinSize) : given ? [given.width, given.height] : []
  const baked = bakeMD2(gltf.scene, gltf.animations, {
    ...(fps !== undefined ? { fps } : {}),
    ...(scale !== undefined ? { scale } : {}),
    ...(clips ? { clips } : {}),
    ...(parsed.meshes.length > 0 ? { meshes: parsed.meshes } : {}),
    ...(skinWidth !== undefined ? { skinWidth, skinHeight } : {}),
    skins: [skinName],
    name: output.replace(/^.*[/\\]/, ''),
    onWarning: (message) => io.stderr(`${input}: warning: ${message}\n`),
  })
  const texture = baked.skinTexture
  const undecoded = texture?.userData.undecoded as string | undefined
  // Decoded above into a DataTexture: its image is RGBA, top row first.
  const image = given ?? (texture && !undecoded ? (texture.image as DecodedImage) : undefined)
  let skinNote = 'no skin'
  if (image) {
    const encoded = format === 'pcx' ? encodePCX(image) : format === 'tga' ? encodeTGA(image) : encodePNG(image)
    try {
      io.writeFile(skinFile, encoded)
    } catch (error) {
      throw new CliFailure(`${skinFile}: cannot write: ${describeFileError(error)}`)
    }
    skinNote = `skin ${image.width}×${image.height} written to ${skinFile}${format === 'pcx' ? " (Quake II's palette)" : ''}`
  } else {
    // No skin file: the model names none.
    baked.model.skins.splice(0)
    if (undecoded)
      io.stderr(
        `${input}: ` +
          (undecoded === 'missing'
            ? 'the base-colour texture is neither in the file nor beside it'
            : `the base-colour texture is ${undecoded}, which convert cannot decode in Node`) +
          '; no skin written (--skin FILE gives one)\n',
      )
  }
  // MD2 keeps no rate (readers assume Quake II's): another one goes in an animation table beside the model.
  let tableNote = ''
  if (fps !== undefined && fps !== QUAKE2_FPS && baked.model.animations.length > 0) {
    const tableFile = output.replace(/\.md2$/i, '') + '.anm'
    const lines = baked.model.animations.map(({ name, start, end }) => `${name} ${start} ${end} ${fps}`)
    try {
      io.writeFile(tableFile, new TextEncoder().encode(`// name first last fps (react-three-md2 convert)\n${lines.join('\n')}\n`))
    } catch (error) {
      throw new CliFailure(`${tableFile}: cannot write: ${describeFileError(error)}`)
    }
    tableNote = `, animation table in ${tableFile}`
  }
  const data = writeMD2(baked.model)
  const written = parseMD2(data, { name: output })
  const { header } = written
  io.stdout(
    `wrote ${output}: ${data.byteLength} bytes, ${header.numFrames} frames, ${header.numVertices} vertices, ${header.numTris} triangles, ` +
      `${written.animations.length} animation${written.animations.length === 1 ? '' : 's'} (` +
      baked.clips.map((clip) => `${clip.animation} ${clip.end - clip.start + 1}`).join(', ') +
      `) at ${fps ?? QUAKE2_FPS} fps${tableNote}, ${skinNote}\n`,
  )
  for (const warning of written.warnings) io.stderr(`${output}: warning: ${warning}\n`)
  return data
}
