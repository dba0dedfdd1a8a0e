import { resolveAnimations } from './animationTable.js'
import { MD2Error } from '../MD2Error.js'
import { defineLazyFrames } from './frameStore.js'
import { buildGlCommands } from './glCommands.js'
import { decodeGlCommands } from './parseMD2.js'
import { quantizeFrame } from './quantizeFrame.js'
import type { MD2AnimationDef, MD2Frame, MD2ModelData } from './types.js'
import { MAX_MD2_INDEXED } from './spec.js'
import { checkWritable, md2Header, writeFrameRecords } from './writeMD2.js'

export interface CreateMD2Input {
  /** Positions per frame, x, y, z per vertex, Quake II coordinates (X forward, Y left, Z up). Same vertex count in every frame. */
  frames: readonly ArrayLike<number>[]
  /** Normals per frame (same layout as the positions); a missing entry is computed from the faces as qdata does. */
  normals?: readonly (ArrayLike<number> | undefined)[]
  /** 3 vertex indices per triangle, MD2 winding: clockwise seen from outside. */
  triangles: ArrayLike<number>
  /**
   * Texture coordinates, 0..1 across the skin, v down (like MD2's t): either u, v per vertex
   * (`2 × numVertices`) or per triangle corner (`6 × numTriangles`, in triangle order), see `uvLayout`.
   */
  uvs: ArrayLike<number>
  /** How `uvs` is laid out; by default, from its length (per vertex when both fit). */
  uvLayout?: 'vertex' | 'corner'
  /** The skin size in texels that st is measured in. */
  skinWidth: number
  skinHeight: number
  /** Skin paths, at most 63 bytes each (`players/mymodel/skin.pcx`). */
  skins?: readonly string[]
  /** Frame names, at most 15 bytes; a missing one is `frame000`, `frame001`, ... Name + digits groups into animations. */
  frameNames?: readonly (string | undefined)[]
  /** Kept as `model.name`. */
  name?: string
  /** An animation table to use instead of grouping the frame names (as `parseMD2` takes it). */
  animations?: readonly MD2AnimationDef[]
}

function fail(code: 'BAD_ARGUMENT' | 'BAD_INDEX' | 'BAD_VALUE' | 'EMPTY' | 'UNWRITABLE', message: string, section: string): never {
  throw new MD2Error(code, message, { section })
}

function vertexCountOf(frames: readonly ArrayLike<number>[]): number {
  const first = frames[0]
  if (!first) fail('EMPTY', 'no frames given', 'frames')
  if (first.length === 0 || first.length % 3 !== 0)
    fail('BAD_ARGUMENT', `frame 0 has ${first.length} position numbers, expected 3 per vertex`, 'frames')
  frames.forEach((frame, index) => {
    if (frame.length !== first.length)
      fail('BAD_ARGUMENT', `frame ${index} has ${frame.length} position numbers, frame 0 has ${first.length}`, 'frames')
  })
  const numVertices = first.length / 3
  if (numVertices > MAX_MD2_INDEXED)
    fail('UNWRITABLE', `${numVertices} vertices: uint16 triangle indices address at most ${MAX_MD2_INDEXED}`, 'frames')
  return numVertices
}

function checkTriangleIndices(triangles: ArrayLike<number>, numVertices: number): number {
  if (triangles.length === 0 || triangles.length % 3 !== 0) {
    fail(
      triangles.length === 0 ? 'EMPTY' : 'BAD_ARGUMENT',
      `${triangles.length} triangle indices, expected 3 per triangle and at least one triangle`,
      'triangles',
    )
  }
  for (let i = 0; i < triangles.length; i++) {
    const index = triangles[i]!
    if (!Number.isInteger(index) || index < 0 || index >= numVertices) {
      fail('BAD_INDEX', `triangle ${Math.floor(i / 3)} uses vertex ${index}, there are ${numVertices}`, 'triangles')
    }
  }
  return triangles.length / 3
}

function checkSkinSize(width: number, height: number): void {
  for (const [value, what] of [
    [width, 'skinWidth'],
    [height, 'skinHeight'],
  ] as const) {
    if (!Number.isInteger(value) || value < 1 || value > 0x7fffffff)
      fail('BAD_ARGUMENT', `${what} ${value} is not a positive integer`, 'header')
  }
}

function resolveUvLayout(input: CreateMD2Input, numVertices: number, numTris: number): 'vertex' | 'corner' {
  const perVertex = input.uvs.length === numVertices * 2
  const perCorner = input.uvs.length === numTris * 6
  const layout = input.uvLayout ?? (perVertex ? 'vertex' : 'corner')
  if ((layout === 'vertex' && !perVertex) || (layout === 'corner' && !perCorner)) {
    fail(
      'BAD_ARGUMENT',
      `${input.uvs.length} uv numbers fit neither ${numVertices} vertices (${numVertices * 2}) nor ${numTris} triangle corners (${numTris * 6})`,
      'st',
    )
  }
  return layout
}

/** Texel coordinates as int16, deduplicated; `corners` gets the st index of each triangle corner. */
function buildST(input: CreateMD2Input, numTris: number, layout: 'vertex' | 'corner'): { st: Int16Array; corners: Uint32Array } {
  const { uvs, triangles, skinWidth, skinHeight } = input
  const index = new Map<number, number>()
  const values: number[] = []
  const corners = new Uint32Array(numTris * 3)
  for (let c = 0; c < numTris * 3; c++) {
    const uv = layout === 'vertex' ? triangles[c]! * 2 : c * 2
    const u = uvs[uv]!
    const v = uvs[uv + 1]!
    if (!Number.isFinite(u) || !Number.isFinite(v))
      fail('BAD_VALUE', `triangle ${Math.floor(c / 3)} corner ${c % 3} has uv (${u}, ${v})`, 'st')
    const s = Math.round(u * skinWidth)
    const t = Math.round(v * skinHeight)
    if (s < -32768 || s > 32767 || t < -32768 || t > 32767) {
      fail('UNWRITABLE', `uv (${u}, ${v}) is texel (${s}, ${t}), outside int16 st`, 'st')
    }
    const key = (s + 32768) * 65536 + (t + 32768)
    let found = index.get(key)
    if (found === undefined) {
      found = values.length / 2
      index.set(key, found)
      values.push(s, t)
    }
    corners[c] = found
  }
  if (values.length / 2 > MAX_MD2_INDEXED)
    fail('UNWRITABLE', `${values.length / 2} distinct texture coordinates: uint16 indices address at most ${MAX_MD2_INDEXED}`, 'st')
  return { st: Int16Array.from(values), corners }
}

function defaultFrameName(index: number): string {
  return `frame${String(index).padStart(3, '0')}`
}

/**
 * Builds a complete model from float data, ready for `writeMD2`: st from the uvs in texels (rounded,
 * duplicates merged), triangles as MD2 stores them, each frame quantized with `quantizeFrame`, GL
 * commands built as qdata builds them, the header laid out as `writeMD2` writes it, animations grouped
 * from the frame names as `parseMD2` groups them (or from `input.animations`), warnings for counts
 * past Quake II's engine limits. `parseMD2(writeMD2(createMD2(input)))` equals the created model.
 *
 * Throws `MD2Error`: `EMPTY`, `BAD_ARGUMENT` (lengths that do not fit), `BAD_INDEX`, `BAD_VALUE`
 * (non-finite positions, normals or uvs), `UNWRITABLE` (over 65,535 vertices or st, long names).
 */
export function createMD2(input: CreateMD2Input): MD2ModelData {
  checkSkinSize(input.skinWidth, input.skinHeight)
  const numVertices = vertexCountOf(input.frames)
  const numTris = checkTriangleIndices(input.triangles, numVertices)
  const { st, corners } = buildST(input, numTris, resolveUvLayout(input, numVertices, numTris))

  const triangles = new Uint16Array(numTris * 6)
  for (let i = 0; i < numTris; i++) {
    for (let k = 0; k < 3; k++) {
      triangles[i * 6 + k] = input.triangles[i * 3 + k]!
      triangles[i * 6 + 3 + k] = corners[i * 3 + k]!
    }
  }
  const frames: MD2Frame[] = input.frames.map(
    (positions, f) => quantizeFrame(positions, input.normals?.[f], input.frameNames?.[f] ?? defaultFrameName(f), input.triangles).frame,
  )
  const skins = [...(input.skins ?? [])]
  const header = { skinWidth: input.skinWidth, skinHeight: input.skinHeight }
  const { warnings } = checkWritable({ header, skins, st, triangles, frames, name: input.name })

  const glCommandData = buildGlCommands({ header, st, triangles })
  // Built here, so sound: a failure would be a bug in buildGlCommands, and throws.
  const decoded = decodeGlCommands(glCommandData, numVertices)
  const md2 = md2Header({
    ...header,
    numSkins: skins.length,
    numVertices,
    numST: st.length / 2,
    numTris,
    numGlCmds: glCommandData.length,
    numFrames: frames.length,
  })
  // The frames as one buffer in the file's layout, as a parsed model holds them; `model.frames` is built from it on first read.
  const frameData = new Uint8Array(frames.length * md2.frameSize)
  writeFrameRecords(frameData, new DataView(frameData.buffer), 0, md2.frameSize, frames)
  const frameTransforms = new Float32Array(frames.length * 6)
  frames.forEach((frame, f) => {
    frameTransforms.set(frame.scale, f * 6)
    frameTransforms.set(frame.translate, f * 6 + 3)
  })
  const frameNames = frames.map((frame) => frame.name)
  const model: MD2ModelData = defineLazyFrames({
    header: md2,
    skins,
    st,
    triangles,
    frameNames,
    frameTransforms,
    frameData,
    frameStride: md2.frameSize,
    glCommands: decoded.commands,
    glCommandData,
    glCommandFloats: new Float32Array(glCommandData.buffer, glCommandData.byteOffset, glCommandData.length),
    animations: resolveAnimations(frameNames, input.animations, warnings),
    warnings,
  })
  if (input.name !== undefined) model.name = input.name
  return model
}
