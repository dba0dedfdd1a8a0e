import {
  BufferAttribute,
  BufferGeometry,
  DataTexture,
  FloatType,
  MeshBasicMaterial,
  MeshDepthMaterial,
  MeshDistanceMaterial,
  MeshLambertMaterial,
  NearestFilter,
  RGBADepthPacking,
  RedFormat,
  RGBAFormat,
  UnsignedByteType,
  type Material,
} from 'three'
import { ANORMS_256_YUP } from '../../../core/animation/yUpAxes.js'
import { MD2Error } from '../../../core/MD2Error.js'
import { ANORMTAB, SHADEDOT_QUANT } from '../../../core/lighting/shadeDots.js'
import { FRAME_HEADER_SIZE, VERTEX_SIZE } from '../../../core/format/spec.js'
import type { MD2ModelData } from '../../../core/format/types.js'
import { decodeInGLSL, type GpuDecodeInputs, type GpuDecodeOptions } from '../../materials/gpuDecodeGLSL.js'
import { webgpuMaterials } from '../../materials/webgpuMaterials.js'
import { getMD2RenderData } from '../../mesh/MD2RenderData.js'
import type { MD2CrowdOptions } from './MD2CrowdOptions.js'
import type { CrowdComputePass, CrowdCullPass, CrowdWebGPUSupport } from './webgpuSupport.js'
import type { CrowdShaderState } from './CrowdShaderState.js'

/**
 * What the GPU path keeps per model, shared by every instance set of it: the file's frame vertices as
 * an RGBA8 texture (one texel per vertex per frame: x, y, z, normal index, exactly the file's
 * bytes), each frame's scale and translate in a float table, and a geometry whose only per-vertex data
 * is which MD2 vertex it reads (plus the shared index and uvs).
 */
export interface MD2GpuFrames {
  /**
   * RGBA8: frame `f` is the `numVertices` texels of row `f mod rows`, starting at column
   * `floor(f / rows) × numVertices` (frames past the device's row limit go on in a block beside).
   */
  frames: DataTexture
  /** RGBA32F, at the same row: scale (xyz) at column `2 × block`, translate (xyz) at `2 × block + 1`. */
  table: DataTexture
  /** Frames per block of rows. */
  rows: number
  /** MD2 vertices per frame. */
  vertices: number
  geometry: BufferGeometry
  /** Bytes on the GPU for the frames texture (≈ the file's frame bytes) and for everything shared. */
  frameBytes: number
  sharedBytes: number
}

/** Per model, per device texture limit (two renderers may differ): the data and how many crowds use it. */
const perModel = new WeakMap<MD2ModelData, Map<number, { data: MD2GpuFrames; users: number }>>()

/**
 * The model's GPU frame data for a device whose `MAX_TEXTURE_SIZE` is `maxTextureSize`, built on first
 * use and shared (counted: give it back with `releaseMD2GpuFrames` once per call). A model too large for
 * the device is refused with an `MD2Error` naming the limit (the CPU path draws it).
 */
export function acquireMD2GpuFrames(model: MD2ModelData, maxTextureSize: number): MD2GpuFrames {
  let byLimit = perModel.get(model)
  if (!byLimit) perModel.set(model, (byLimit = new Map()))
  const cached = byLimit.get(maxTextureSize)
  if (cached) {
    cached.users++
    return cached.data
  }
  const data = buildGpuFrames(model, maxTextureSize)
  byLimit.set(maxTextureSize, { data, users: 1 })
  return data
}

/** Gives back what `acquireMD2GpuFrames` returned; the last user's release frees the GPU resources. */
export function releaseMD2GpuFrames(model: MD2ModelData, data: MD2GpuFrames): void {
  const byLimit = perModel.get(model)
  if (!byLimit) return
  for (const [limit, entry] of byLimit) {
    if (entry.data !== data || --entry.users > 0) continue
    byLimit.delete(limit)
    data.frames.dispose()
    data.table.dispose()
    data.geometry.dispose()
  }
}

/**
 * One frame per texture row, so the shader addresses a vertex as (column, row) with no division; past
 * the device's row limit, frames continue in another block of columns beside the first.
 */
function buildGpuFrames(model: MD2ModelData, maxTextureSize: number): MD2GpuFrames {
  const { numVertices, numFrames } = model.header
  const rows = Math.min(numFrames, maxTextureSize)
  const blocks = Math.ceil(numFrames / rows)
  const width = blocks * numVertices
  if (width > maxTextureSize)
    throw new MD2Error(
      'OUT_OF_RANGE',
      `${numFrames} frames × ${numVertices} vertices need a ${width} × ${rows} texture; this device's MAX_TEXTURE_SIZE is ${maxTextureSize}. Draw it with <MD2Model> (the CPU path)`,
      { section: 'frames', file: model.name },
    )
  const bytes = new Uint8Array(rows * width * 4)
  const vertexBytes = numVertices * VERTEX_SIZE
  const table = new Float32Array(rows * blocks * 2 * 4)
  const m = model.frameTransforms
  for (let f = 0; f < numFrames; f++) {
    const block = Math.floor(f / rows)
    const row = f - block * rows
    const start = f * model.frameStride + FRAME_HEADER_SIZE
    bytes.set(model.frameData.subarray(start, start + vertexBytes), (row * width + block * numVertices) * 4)
    table.set(
      [m[f * 6]!, m[f * 6 + 1]!, m[f * 6 + 2]!, 0, m[f * 6 + 3]!, m[f * 6 + 4]!, m[f * 6 + 5]!, 0],
      (row * blocks * 2 + block * 2) * 4,
    )
  }
  // Plain RGBA8 (read back ×255): the most common texture path, faster than an integer texture in
  // software renderers; every byte still comes back exactly.
  const frames = new DataTexture(bytes, width, rows, RGBAFormat, UnsignedByteType)
  frames.magFilter = frames.minFilter = NearestFilter
  frames.generateMipmaps = false
  frames.needsUpdate = true

  const render = getMD2RenderData(model)
  const geometry = new BufferGeometry()
  geometry.setIndex(render.index)
  geometry.setAttribute('uv', render.uv)
  // Which MD2 vertex each drawn vertex reads, as its only position (both shaders decode the rest).
  const vertexIndex = new BufferAttribute(Float32Array.from(render.layout.xyzIndex), 1)
  geometry.setAttribute('position', vertexIndex)
  // Never read as a normal (the shaders decode normals), but without one three draws Lambert flat-shaded
  // and WebGPURenderer warns: the same buffer again.
  geometry.setAttribute('normal', vertexIndex)
  geometry.boundingBox = render.boundingBox.clone()
  geometry.boundingSphere = render.boundingSphere.clone()
  geometry.name = `${model.name ?? 'md2'} (GPU frames)`
  return {
    frames,
    table: floatTexture(table, blocks * 2, rows, RGBAFormat),
    rows,
    vertices: numVertices,
    geometry,
    frameBytes: bytes.byteLength,
    sharedBytes: table.byteLength + render.layout.vertexCount * (4 + 8) + render.layout.indices.byteLength + SHARED_TABLE_BYTES,
  }
}

function floatTexture(data: Float32Array, width: number, height: number, format: typeof RGBAFormat | typeof RedFormat): DataTexture {
  const texture = new DataTexture(data, width, height, format, FloatType)
  texture.magFilter = texture.minFilter = NearestFilter
  texture.generateMipmaps = false
  texture.needsUpdate = true
  return texture
}

/** Quake II's 162 normals (padded to 256, Y-up) and its 16 × 256 light table, shared by every model. */
let normalTexture: DataTexture | undefined
let lightTexture: DataTexture | undefined
const SHARED_TABLE_BYTES = 256 * 16 + SHADEDOT_QUANT * 256 * 4

function sharedTables(): { normals: DataTexture; light: DataTexture } {
  if (!normalTexture) {
    const normals = new Float32Array(256 * 4)
    for (let n = 0; n < 256; n++) normals.set([ANORMS_256_YUP[n * 3]!, ANORMS_256_YUP[n * 3 + 1]!, ANORMS_256_YUP[n * 3 + 2]!, 0], n * 4)
    normalTexture = floatTexture(normals, 256, 1, RGBAFormat)
    lightTexture = floatTexture(Float32Array.from(ANORMTAB), 256, SHADEDOT_QUANT, RedFormat)
  }
  return { normals: normalTexture, light: lightTexture! }
}

/**
 * Makes `material` draw an `MD2Crowd` on either renderer: `WebGLRenderer` runs the GLSL decode
 * (`onBeforeCompile`), `WebGPURenderer` the TSL one (`positionNode`, `colorNode`) that `webgpu` (the crowd's
 * WebGPU side) sets, each ignoring the other's. Works for the crowd's material and its depth and distance
 * materials (so shadows animate).
 */
export function drawWithGpuFrames(
  material: Material,
  frames: MD2GpuFrames,
  options: GpuDecodeOptions & { webgpu: CrowdWebGPUSupport | undefined; computed?: CrowdComputePass; culled?: CrowdCullPass },
): Material {
  const inputs = gpuDecodeInputs(frames)
  decodeInGLSL(material, inputs, options)
  options.webgpu?.decodeInTSL(material, inputs, options)
  return material
}

/**
 * A crowd's materials, drawing `frames` by `decoding`'s WebGPU side and compute pass: its own (three's
 * lights, or Quake II's light per vertex), and the depth and distance materials its shadows are cast with.
 */
export function createCrowdMaterials(
  frames: MD2GpuFrames,
  look: Pick<MD2CrowdOptions, 'lighting' | 'map' | 'opacity'>,
  decoding: {
    webgpu: CrowdWebGPUSupport | undefined
    computed: CrowdComputePass | undefined
    culled: CrowdCullPass | undefined
    state: CrowdShaderState
  },
): { material: Material; depth: Material; distance: Material } {
  const quake2 = look.lighting === 'quake2'
  const opacity = look.opacity ?? 1
  const surface = { map: look.map ?? null, transparent: opacity < 1, opacity }
  const material = quake2 ? new MeshBasicMaterial({ ...surface, vertexColors: true }) : new MeshLambertMaterial(surface)
  if (surface.transparent) webgpuMaterials()?.blendInSRGB(material)
  return {
    material: drawWithGpuFrames(material, frames, { quake2Light: quake2, normals: !quake2, ...decoding }),
    depth: drawWithGpuFrames(new MeshDepthMaterial({ depthPacking: RGBADepthPacking }), frames, decoding),
    distance: drawWithGpuFrames(new MeshDistanceMaterial(), frames, decoding),
  }
}

/** The textures and sizes both decodes (and the compute pass) read a model's frames from. */
export function gpuDecodeInputs(frames: MD2GpuFrames): GpuDecodeInputs {
  const tables = sharedTables()
  return { frames: frames.frames, table: frames.table, normals: tables.normals, light: tables.light, vertices: frames.vertices }
}
