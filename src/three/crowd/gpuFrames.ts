import {
  BufferAttribute,
  BufferGeometry,
  DataTexture,
  FloatType,
  NearestFilter,
  RedFormat,
  RGBAFormat,
  UnsignedByteType,
  type Material,
  type WebGLProgramParametersWithUniforms,
} from 'three'
import { ANORMS_256_YUP } from '../../core/animation/blend-vertices.js'
import { MD2Error } from '../../core/errors.js'
import { ANORMTAB, SHADEDOT_QUANT } from '../../core/lighting/shade-dots.js'
import { POWERSUIT_SCALE } from '../../core/lighting/quake2-light.js'
import { FRAME_HEADER_SIZE, VERTEX_SIZE } from '../../core/format/spec.js'
import type { MD2Model } from '../../core/format/types.js'
import { getMD2RenderData } from '../mesh/MD2Geometry.js'

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
const perModel = new WeakMap<MD2Model, Map<number, { data: MD2GpuFrames; users: number }>>()

/**
 * The model's GPU frame data for a device whose `MAX_TEXTURE_SIZE` is `maxTextureSize`, built on first
 * use and shared (counted: give it back with `releaseMD2GpuFrames` once per call). A model too large for
 * the device is refused with an `MD2Error` naming the limit (the CPU path draws it).
 */
export function acquireMD2GpuFrames(model: MD2Model, maxTextureSize: number): MD2GpuFrames {
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
export function releaseMD2GpuFrames(model: MD2Model, data: MD2GpuFrames): void {
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
function buildGpuFrames(model: MD2Model, maxTextureSize: number): MD2GpuFrames {
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
  geometry.setAttribute('md2Vertex', new BufferAttribute(Float32Array.from(render.layout.xyzIndex), 1))
  // Never read (the shader decodes normals), but without a normal attribute three draws Lambert flat-shaded.
  geometry.setAttribute('normal', new BufferAttribute(new Int8Array(render.layout.vertexCount), 1))
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
    sharedBytes: table.byteLength + render.layout.vertexCount * (4 + 8 + 1) + render.layout.indices.byteLength + SHARED_TABLE_BYTES,
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
 * Makes `material` draw an `MD2Crowd`: its vertex shader reads each vertex's two keyframes (and the two
 * of a crossfade's outgoing pose) from the frames texture, dequantizes, blends and turns them to Y-up
 * exactly as the CPU kernel does, and, with `quake2Light`, writes Quake II's `shadedots × shadelight`
 * colour. Works for the crowd's material and its depth and distance materials (so shadows animate).
 */
export function drawWithGpuFrames(
  material: Material,
  frames: MD2GpuFrames,
  options: { quake2Light?: boolean; shell?: boolean; normals?: boolean } = {},
): Material {
  const tables = sharedTables()
  const previous = material.onBeforeCompile.bind(material)
  material.onBeforeCompile = (shader: WebGLProgramParametersWithUniforms, renderer) => {
    previous(shader, renderer)
    shader.uniforms.md2FrameBytes = { value: frames.frames }
    shader.uniforms.md2Table = { value: frames.table }
    shader.uniforms.md2Normals = { value: tables.normals }
    shader.uniforms.md2LightTable = { value: tables.light }
    shader.uniforms.md2Vertices = { value: frames.vertices }
    shader.vertexShader = patchVertexShader(shader.vertexShader, options)
  }
  const key = material.customProgramCacheKey.bind(material)
  material.customProgramCacheKey = () =>
    `${key()}|md2-gpu${options.quake2Light ? '-q2' : ''}${options.shell ? '-shell' : ''}${options.normals ? '-n' : ''}`
  return material
}

const DECLARATIONS = /* glsl */ `
uniform highp sampler2D md2FrameBytes;
uniform highp sampler2D md2Table;
uniform highp sampler2D md2Normals;
uniform highp sampler2D md2LightTable;
uniform int md2Vertices;
attribute float md2Vertex;
// Per instance: where its two keyframes are (block, row each) and the same for a crossfade's outgoing
// pair; the blends (t, the outgoing t, the outgoing weight, the light table row); the two keyframes'
// scales with the blend folded in, and their blended translate (the CPU kernel's coefficients); the shadelight.
attribute vec4 md2Frames;
attribute vec4 md2FadeFrames;
attribute vec4 md2Blend;
attribute vec3 md2ScaleA;
attribute vec3 md2ScaleB;
attribute vec3 md2Shift;
attribute vec4 md2Light;
vec3 md2Position;
vec3 md2ObjectNormal = vec3(0.0, 1.0, 0.0);
vec3 md2Color;
// A vertex's 4 bytes (x, y, z, normal index) as the whole numbers they are.
vec4 md2Texel(vec2 frame, int vertex) {
  return floor(texelFetch(md2FrameBytes, ivec2(int(frame.x) * md2Vertices + vertex, int(frame.y)), 0) * 255.0 + 0.5);
}
vec3 md2Normal(float index) { return texelFetch(md2Normals, ivec2(int(index), 0), 0).xyz; }
// Quake's x, y, z drawn as y, z, x (Y up).
vec3 md2YUp(vec3 q) { return vec3(q.y, q.z, q.x); }
// One keyframe of the outgoing pose, through the frame table (a crossfade only).
vec3 md2ReadFaded(vec2 frame, int vertex, out float normalIndex) {
  vec4 b = md2Texel(frame, vertex);
  ivec2 at = ivec2(int(frame.x) * 2, int(frame.y));
  normalIndex = b.w;
  return md2YUp(b.xyz * texelFetch(md2Table, at, 0).xyz + texelFetch(md2Table, at + ivec2(1, 0), 0).xyz);
}
float md2Linear(float c) { return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4); }
void md2Decode() {
  int v = int(md2Vertex);
  vec4 a = md2Texel(md2Frames.xy, v);
  vec4 b = md2Texel(md2Frames.zw, v);
  md2Position = md2YUp(a.xyz * md2ScaleA + b.xyz * md2ScaleB + md2Shift);
  #ifdef MD2_NORMALS
  md2ObjectNormal = mix(md2Normal(a.w), md2Normal(b.w), md2Blend.x);
  #endif
  if (md2Blend.z > 0.0) {
    float fa; float fb;
    vec3 outgoing = mix(md2ReadFaded(md2FadeFrames.xy, v, fa), md2ReadFaded(md2FadeFrames.zw, v, fb), md2Blend.y);
    md2Position = mix(md2Position, outgoing, md2Blend.z);
    #ifdef MD2_NORMALS
    md2ObjectNormal = mix(md2ObjectNormal, mix(md2Normal(fa), md2Normal(fb), md2Blend.y), md2Blend.z);
    #endif
  }
  #ifdef MD2_SHELL
  // A power-up shell stands off the body along the normals of the frame blended towards.
  md2Position += md2Normal(b.w) * POWERSUIT_SCALE;
  #endif
  #ifdef MD2_QUAKE2_LIGHT
  // Quake II lights a vertex by its normal in the frame being blended towards, from its yaw's row.
  float dots = texelFetch(md2LightTable, ivec2(int(b.w), int(md2Blend.w)), 0).r;
  vec3 c = clamp(dots * md2Light.rgb, 0.0, 1.0);
  md2Color = vec3(md2Linear(c.r), md2Linear(c.g), md2Linear(c.b));
  #endif
}
`

function patchVertexShader(source: string, options: { quake2Light?: boolean; shell?: boolean; normals?: boolean }): string {
  const defines =
    (options.quake2Light ? '#define MD2_QUAKE2_LIGHT\n' : '') +
    (options.normals ? '#define MD2_NORMALS\n' : '') +
    (options.shell ? `#define MD2_SHELL\n#define POWERSUIT_SCALE ${POWERSUIT_SCALE.toFixed(1)}\n` : '')
  let out = defines + DECLARATIONS + source.replace('void main() {', 'void main() {\n  md2Decode();')
  out = out.replace('#include <begin_vertex>', 'vec3 transformed = md2Position;')
  out = out.replace('#include <beginnormal_vertex>', 'vec3 objectNormal = md2ObjectNormal;')
  // Older three.js releases declare vColor as a vec3, newer ones as a vec4: set its colour channels only.
  if (options.quake2Light)
    out = out.replace(
      '#include <color_vertex>',
      '#include <color_vertex>\n  #if defined(USE_COLOR) || defined(USE_COLOR_ALPHA)\n  vColor.rgb = md2Color;\n  #endif',
    )
  return out
}
