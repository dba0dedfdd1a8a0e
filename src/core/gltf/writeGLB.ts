import { MD2Error } from '../MD2Error.js'
import { decodeFrame, decodeFrameNormals } from '../format/decodeFrame.js'
import type { MD2Animation, MD2ModelData } from '../format/types.js'
import { buildVertexLayout } from '../format/vertexLayout.js'
import type { DecodedImage } from '../images/decodedImage.js'
import { encodePNG } from '../images/png.js'
import { packGLB } from './glb.js'

export interface WriteGLBOptions {
  /** The skin to embed as PNG, first row at the top (what `decodePCX`/`decodeTGA` return). */
  skin?: DecodedImage | null
  /** One morph target per keyframe and a clip per named animation (default), or the base frame alone. */
  animations?: boolean
  /** The keyframe the mesh itself holds (default 0). */
  frame?: number
  /** The mesh's name (default: the model's file name without its extension). */
  name?: string
}

/** glTF's component types and targets, by their spec numbers. */
const FLOAT = 5126
const UNSIGNED_SHORT = 5123
const UNSIGNED_INT = 5125
const ARRAY_BUFFER = 34962
const ELEMENT_ARRAY_BUFFER = 34963

/**
 * The model as glTF 2.0 binary (`.glb`), in plain TypeScript (Node, browsers, workers): a mesh in the
 * Y-up frame `<MD2Model>` draws (vertices split where triangles give them different texture
 * coordinates, as the renderer splits them), one morph target per keyframe (positions and normals, as
 * offsets from the base frame, named after the frames) and, per named animation, a clip stepping the
 * weights from keyframe to keyframe at its fps and back to its first, so linear interpolation in any
 * glTF player is MD2's own. The skin is embedded as PNG, texture origin top left as glTF has it.
 */
export function writeGLB(model: MD2ModelData, options: WriteGLBOptions = {}): Uint8Array {
  const frames = model.header.numFrames
  const base = options.frame ?? 0
  if (!Number.isInteger(base) || base < 0 || base >= frames)
    throw new MD2Error('BAD_ARGUMENT', `writeGLB: frame ${String(base)} is not a keyframe (0…${frames - 1})`, { file: model.name })
  const animations = options.animations !== false
  const layout = buildVertexLayout(model)
  const count = layout.vertexCount
  const { skinWidth, skinHeight } = model.header

  const bin = new BinaryWriter()
  const accessors: object[] = []
  const accessor = (view: number, componentType: number, type: string, n: number, extra: object = {}) =>
    accessors.push({ bufferView: view, componentType, count: n, type, ...extra }) - 1

  const wide = layout.indices instanceof Uint32Array
  const indices = accessor(
    bin.view(layout.indices, ELEMENT_ARRAY_BUFFER),
    wide ? UNSIGNED_INT : UNSIGNED_SHORT,
    'SCALAR',
    layout.indices.length,
  )
  const uv = new Float32Array(count * 2)
  for (let i = 0; i < count; i++) {
    const s = layout.stIndex[i]!
    uv[i * 2] = model.st[s * 2]! / skinWidth
    uv[i * 2 + 1] = model.st[s * 2 + 1]! / skinHeight
  }
  const texcoords = accessor(bin.view(uv, ARRAY_BUFFER), FLOAT, 'VEC2', count)

  // Every keyframe in the drawn layout, Y-up: (x, y, z) Quake → (y, z, x).
  const quake = new Float32Array(model.header.numVertices * 3)
  const keyframe = (index: number, normals: boolean): Float32Array => {
    if (normals) decodeFrameNormals(model, index, quake)
    else decodeFrame(model, index, quake)
    const out = new Float32Array(count * 3)
    for (let i = 0; i < count; i++) {
      const v = layout.xyzIndex[i]! * 3
      out[i * 3] = quake[v + 1]!
      out[i * 3 + 1] = quake[v + 2]!
      out[i * 3 + 2] = quake[v]!
    }
    return out
  }
  const basePositions = keyframe(base, false)
  const baseNormals = keyframe(base, true)
  const position = accessor(bin.view(basePositions, ARRAY_BUFFER), FLOAT, 'VEC3', count, bounds(basePositions))
  const normal = accessor(bin.view(baseNormals, ARRAY_BUFFER), FLOAT, 'VEC3', count)

  const targets: { POSITION: number; NORMAL: number }[] = []
  if (animations) {
    for (let f = 0; f < frames; f++) {
      const positions = keyframe(f, false)
      const normals = keyframe(f, true)
      for (let i = 0; i < positions.length; i++) {
        positions[i] = positions[i]! - basePositions[i]!
        normals[i] = normals[i]! - baseNormals[i]!
      }
      targets.push({
        POSITION: accessor(bin.view(positions, ARRAY_BUFFER), FLOAT, 'VEC3', count, bounds(positions)),
        NORMAL: accessor(bin.view(normals, ARRAY_BUFFER), FLOAT, 'VEC3', count),
      })
    }
  }

  const gltfAnimations = animations ? model.animations.map((animation) => clipOf(animation, frames, bin, accessor)) : []

  const material: Record<string, unknown> = {
    name: 'skin',
    doubleSided: true,
    pbrMetallicRoughness: { metallicFactor: 0, roughnessFactor: 1 },
  }
  const json: Record<string, unknown> = {
    asset: { version: '2.0', generator: 'react-three-md2' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ name: options.name ?? meshName(model), mesh: 0 }],
    meshes: [
      {
        name: options.name ?? meshName(model),
        primitives: [
          {
            attributes: { POSITION: position, NORMAL: normal, TEXCOORD_0: texcoords },
            indices,
            material: 0,
            ...(targets.length > 0 ? { targets } : {}),
          },
        ],
        ...(targets.length > 0
          ? { weights: targets.map(() => 0), extras: { targetNames: model.frameNames.map((name, i) => name || `frame${i}`) } }
          : {}),
      },
    ],
    materials: [material],
  }
  if (options.skin) {
    const png = encodePNG(options.skin)
    json.images = [{ bufferView: bin.view(png), mimeType: 'image/png' }]
    // Nearest filtering, as Quake II's software look keeps the texels sharp; repeat as MD2 st allow.
    json.samplers = [{ magFilter: 9728, minFilter: 9987, wrapS: 10497, wrapT: 10497 }]
    json.textures = [{ sampler: 0, source: 0 }]
    material.pbrMetallicRoughness = { baseColorTexture: { index: 0 }, metallicFactor: 0, roughnessFactor: 1 }
  }
  if (gltfAnimations.length > 0) json.animations = gltfAnimations
  json.accessors = accessors
  json.bufferViews = bin.views
  json.buffers = [{ byteLength: bin.length }]
  return packGLB(json, bin.bytes())
}

/** What `writeGLB` will write, from the model's counts, before anything is allocated. */
export interface GLBSize {
  /** The binary chunk: the mesh, a morph target (positions and normals) per keyframe, the clips' weights, the skin (at most). */
  binBytes: number
  /** The whole `.glb`: the binary chunk and its JSON (at most). */
  totalBytes: number
  /** Vertices in the drawn layout (split where texture coordinates differ). */
  vertices: number
}

/**
 * The size of the `.glb` `writeGLB(model, options)` writes, computed from the model's counts (the drawn
 * layout, the keyframes, the animations' lengths, the skin's size) without writing it: a caller refuses a
 * model whose morph targets would take gigabytes before allocating them. The skin counts as stored PNG at
 * the most (every pixel's four bytes and zlib's overhead), the JSON at the most per keyframe and clip.
 */
export function glbSize(model: MD2ModelData, options: WriteGLBOptions = {}): GLBSize {
  const frames = model.header.numFrames
  const vertices = buildVertexLayout(model).vertexCount
  const padded = (bytes: number) => Math.ceil(bytes / 4) * 4
  const corners = model.header.numTris * 3
  let bin = padded(corners * (corners > 65535 ? 4 : 2)) + vertices * (8 + 12 + 12)
  let json = 4096
  if (options.animations !== false) {
    bin += frames * vertices * 24
    json += frames * 480
    for (const animation of model.animations) {
      const keys = Math.max(0, animation.end - animation.start + 1) + 1
      bin += keys * 4 + keys * frames * 4
      json += 512
    }
  }
  const skin = options.skin
  if (skin) bin += padded(skin.width * skin.height * 4 + skin.height + Math.ceil((skin.width * skin.height * 4) / 16000) * 5 + 1024)
  return { binBytes: bin, totalBytes: 12 + 8 + json + 8 + bin, vertices }
}

function meshName(model: MD2ModelData): string {
  return model.name?.replace(/^.*[/\\]/, '').replace(/\.md2$/i, '') || 'md2'
}

/** The accessor bounds glTF requires on positions. */
function bounds(values: Float32Array): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity]
  const max = [-Infinity, -Infinity, -Infinity]
  for (let i = 0; i < values.length; i += 3)
    for (let k = 0; k < 3; k++) {
      const v = values[i + k]!
      if (v < min[k]!) min[k] = v
      if (v > max[k]!) max[k] = v
    }
  return { min, max }
}

/** Weights stepping through the animation's keyframes, back to its first to loop. */
function clipOf(
  animation: MD2Animation,
  frames: number,
  bin: BinaryWriter,
  accessor: (view: number, componentType: number, type: string, n: number, extra?: object) => number,
): object {
  const count = animation.end - animation.start + 1
  const keys = count + 1
  const times = new Float32Array(keys)
  const weights = new Float32Array(keys * frames)
  for (let k = 0; k < keys; k++) {
    times[k] = k / animation.fps
    weights[k * frames + animation.start + (k % count)] = 1
  }
  const input = accessor(bin.view(times), FLOAT, 'SCALAR', keys, { min: [0], max: [times[keys - 1]!] })
  const output = accessor(bin.view(weights), FLOAT, 'SCALAR', keys * frames)
  return {
    name: animation.name,
    samplers: [{ input, output, interpolation: 'LINEAR' }],
    channels: [{ sampler: 0, target: { node: 0, path: 'weights' } }],
  }
}

/** The binary chunk, built view by view, each 4-byte aligned as glTF asks. */
class BinaryWriter {
  readonly views: { buffer: 0; byteOffset: number; byteLength: number; target?: number }[] = []
  private readonly parts: Uint8Array[] = []
  length = 0

  view(data: ArrayBufferView, target?: number): number {
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
    this.views.push({ buffer: 0, byteOffset: this.length, byteLength: bytes.length, ...(target === undefined ? {} : { target }) })
    this.parts.push(bytes)
    this.length += bytes.length
    const pad = (4 - (this.length % 4)) % 4
    if (pad > 0) {
      this.parts.push(new Uint8Array(pad))
      this.length += pad
    }
    return this.views.length - 1
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(this.length)
    let at = 0
    for (const part of this.parts) {
      out.set(part, at)
      at += part.length
    }
    return out
  }
}
