import type { BufferAttribute, BufferGeometry, InterleavedBufferAttribute } from 'three'
import { createMD2 } from '../../core/format/createMD2.js'
import { MD2Error } from '../../core/MD2Error.js'
import type { MD2AnimationDef, MD2ModelData } from '../../core/format/types.js'

export interface MD2FromGeometryOptions {
  /** The skin size in texels that st is measured in (uv 0..1 spans it). */
  skinWidth: number
  skinHeight: number
  /** Skin paths written in the file, at most 63 bytes each. */
  skins?: readonly string[]
  /** Frame names, at most 15 bytes; default: the morph attributes' (or geometries') names, else `frame000`, ... */
  frameNames?: readonly (string | undefined)[]
  /** An animation table instead of grouping frame names. */
  animations?: readonly MD2AnimationDef[]
  /** Kept as `model.name`. */
  name?: string
  /**
   * Merge vertices that sit at the same place in every frame (default true). three.js splits vertices at
   * uv seams; MD2 keeps one vertex there with an st per triangle corner, so merging gives fewer
   * vertices, longer strips, and normals averaged across the seam as qdata computes them.
   */
  weld?: boolean
  /**
   * Use the geometry's normals (`normal`, and morph normals per frame when present) instead of
   * computing them from the faces as qdata does (the default). Welded vertices average theirs.
   */
  useNormals?: boolean
}

type Attribute = BufferAttribute | InterleavedBufferAttribute

interface Source {
  /** Per frame, three.js positions (x, y, z per vertex). */
  positions: Float32Array[]
  /** Per frame, three.js normals, when used. */
  normals: Float32Array[] | undefined
  /** Triangle corners: three.js vertex indices, 3 per triangle. */
  index: Uint32Array
  uv: Attribute
  names: (string | undefined)[]
}

function fail(message: string): never {
  throw new MD2Error('BAD_ARGUMENT', message, { section: 'geometry' })
}

function readAttribute(attribute: Attribute, what: string): Float32Array {
  if (attribute.itemSize < 3) fail(`${what} has ${attribute.itemSize} components per vertex, expected 3`)
  const out = new Float32Array(attribute.count * 3)
  for (let i = 0; i < attribute.count; i++) {
    out[i * 3] = attribute.getX(i)
    out[i * 3 + 1] = attribute.getY(i)
    out[i * 3 + 2] = attribute.getZ(i)
  }
  return out
}

/** Morph targets are absolute positions unless `morphTargetsRelative`, where they add to the base. */
function morphFrames(geometry: BufferGeometry, name: 'position' | 'normal', base: Float32Array): Float32Array[] | undefined {
  const targets = geometry.morphAttributes[name]
  if (!targets || targets.length === 0) return undefined
  return targets.map((target, t) => {
    const values = readAttribute(target, `morph ${name} ${t}`)
    if (values.length !== base.length) fail(`morph ${name} ${t} has ${values.length / 3} vertices, the geometry has ${base.length / 3}`)
    if (geometry.morphTargetsRelative) for (let i = 0; i < values.length; i++) values[i] = values[i]! + base[i]!
    return values
  })
}

function triangleIndex(geometry: BufferGeometry, vertexCount: number): Uint32Array {
  const index = geometry.getIndex()
  const corners = index
    ? Uint32Array.from({ length: index.count }, (_, i) => index.getX(i))
    : Uint32Array.from({ length: vertexCount }, (_, i) => i)
  if (corners.length === 0 || corners.length % 3 !== 0)
    fail(`the geometry has ${corners.length} triangle corners, expected a multiple of 3 (triangles only)`)
  return corners
}

function requireAttribute(geometry: BufferGeometry, name: string, what: string): Attribute {
  const attribute = geometry.getAttribute(name) as Attribute | undefined
  if (!attribute) fail(`${what} has no ${name} attribute`)
  return attribute
}

/** One geometry: its morph targets are the frames, or its own position is the only frame. */
function fromMorphTargets(geometry: BufferGeometry, useNormals: boolean): Source {
  const base = readAttribute(requireAttribute(geometry, 'position', 'the geometry'), 'position')
  const uv = requireAttribute(geometry, 'uv', 'the geometry')
  const morphs = morphFrames(geometry, 'position', base)
  const positions = morphs ?? [base]
  let normals: Float32Array[] | undefined
  if (useNormals) {
    const baseNormal = readAttribute(requireAttribute(geometry, 'normal', 'the geometry'), 'normal')
    normals = (morphs && morphFrames(geometry, 'normal', baseNormal)) ?? positions.map(() => baseNormal)
  }
  const targets = geometry.morphAttributes.position
  const names = morphs ? morphs.map((_, t) => targets?.[t]?.name || undefined) : [undefined]
  return { positions, normals, index: triangleIndex(geometry, base.length / 3), uv, names }
}

/** Several geometries, one frame each: the first gives the triangles and uvs; all need its vertex count. */
function fromGeometryList(geometries: readonly BufferGeometry[], useNormals: boolean): Source {
  const first = geometries[0]
  if (!first) fail('no geometries given')
  const positions = geometries.map((geometry, g) => readAttribute(requireAttribute(geometry, 'position', `geometry ${g}`), 'position'))
  positions.forEach((frame, g) => {
    if (frame.length !== positions[0]!.length)
      fail(`geometry ${g} has ${frame.length / 3} vertices, geometry 0 has ${positions[0]!.length / 3}`)
  })
  const normals = useNormals
    ? geometries.map((geometry, g) => readAttribute(requireAttribute(geometry, 'normal', `geometry ${g}`), 'normal'))
    : undefined
  return {
    positions,
    normals,
    index: triangleIndex(first, positions[0]!.length / 3),
    uv: requireAttribute(first, 'uv', 'geometry 0'),
    names: geometries.map((geometry) => geometry.name || undefined),
  }
}

/**
 * Classes of vertices equal in every frame, numbered by first appearance: `remap[v]` is v's class.
 * Refined frame by frame, so memory stays one key per vertex.
 */
function weldVertices(positions: readonly Float32Array[], vertexCount: number): { remap: Uint32Array; count: number } {
  let remap = new Uint32Array(vertexCount)
  let count = vertexCount === 0 ? 0 : 1
  for (const frame of positions) {
    const classes = new Map<string, number>()
    const next = new Uint32Array(vertexCount)
    for (let v = 0; v < vertexCount; v++) {
      const key = `${remap[v]} ${frame[v * 3]} ${frame[v * 3 + 1]} ${frame[v * 3 + 2]}`
      let found = classes.get(key)
      if (found === undefined) {
        found = classes.size
        classes.set(key, found)
      }
      next[v] = found
    }
    remap = next
    count = classes.size
  }
  return { remap, count }
}

/** three.js (X, Y, Z) → MD2 (x, y, z) = (Z, X, Y): the inverse of the loader's rotation. Welded vertices sum. */
function toQuake(values: Float32Array, remap: Uint32Array, count: number, sum: boolean): Float32Array {
  const out = new Float32Array(count * 3)
  for (let v = 0; v < remap.length; v++) {
    const o = remap[v]! * 3
    const i = v * 3
    if (sum) {
      out[o] = out[o]! + values[i + 2]!
      out[o + 1] = out[o + 1]! + values[i]!
      out[o + 2] = out[o + 2]! + values[i + 1]!
    } else {
      out[o] = values[i + 2]!
      out[o + 1] = values[i]!
      out[o + 2] = values[i + 1]!
    }
  }
  return out
}

/**
 * Builds an MD2 model from three.js geometry, the inverse of what the loader does, ready for `writeMD2`:
 * - `geometry` with morph targets: one frame per morph target (absolute, or added to the base position
 *   when `morphTargetsRelative`); without morph targets its own position is the only frame.
 *   A list of geometries: one frame each, sharing the first one's triangles and uvs.
 * - positions: MD2 (x, y, z) = three (Z, X, Y) (a rotation: three's +Z forward is Quake's +X, +Y up is +Z);
 * - triangles: three's counter-clockwise (a, b, c) becomes MD2's clockwise (a, c, b); indexed and
 *   non-indexed geometries alike (groups and draw ranges are ignored);
 * - st: s = u · skinWidth, t = (1 − v) · skinHeight, per triangle corner, rounded to texels.
 * Frames are quantized as qdata does (see `createMD2`), so the model keeps the geometry within
 * scale/2 per axis per frame. Throws `MD2Error` as `createMD2` does, and `BAD_ARGUMENT` for geometry
 * it cannot read (no position or uv, non-triangle index, frames of different sizes).
 */
export function md2FromGeometry(geometry: BufferGeometry | readonly BufferGeometry[], options: MD2FromGeometryOptions): MD2ModelData {
  const useNormals = options.useNormals ?? false
  const source = Array.isArray(geometry) ? fromGeometryList(geometry, useNormals) : fromMorphTargets(geometry as BufferGeometry, useNormals)
  const vertexCount = source.positions[0]!.length / 3
  const { remap, count } =
    options.weld === false
      ? { remap: Uint32Array.from({ length: vertexCount }, (_, i) => i), count: vertexCount }
      : weldVertices(source.positions, vertexCount)

  const { index, uv } = source
  const numTris = index.length / 3
  const triangles = new Uint32Array(index.length)
  const uvs = new Float32Array(index.length * 2)
  for (let t = 0; t < numTris; t++) {
    // three (a, b, c) → MD2 (a, c, b): swap the last two corners.
    const corners = [index[t * 3]!, index[t * 3 + 2]!, index[t * 3 + 1]!]
    corners.forEach((vertex, k) => {
      if (vertex >= vertexCount)
        throw new MD2Error('BAD_INDEX', `triangle ${t} uses vertex ${vertex}, the geometry has ${vertexCount}`, { section: 'geometry' })
      const c = t * 3 + k
      triangles[c] = remap[vertex]!
      uvs[c * 2] = uv.getX(vertex)
      uvs[c * 2 + 1] = 1 - uv.getY(vertex)
    })
  }

  return createMD2({
    frames: source.positions.map((frame) => toQuake(frame, remap, count, false)),
    normals: source.normals?.map((frame) => toQuake(frame, remap, count, true)),
    triangles,
    uvs,
    uvLayout: 'corner',
    skinWidth: options.skinWidth,
    skinHeight: options.skinHeight,
    skins: options.skins,
    frameNames: source.positions.map((_, f) => options.frameNames?.[f] ?? source.names[f]),
    animations: options.animations,
    name: options.name,
  })
}
