// Every size, order and limit of the layout written here comes from the format's one statement.
import * as spec from './spec.js'
import { MD2Error } from '../MD2Error.js'
import { buildGlCommands } from './glCommands.js'
import { NUM_VERTEX_NORMALS } from './normals.js'
import { decodeGlCommands } from './parseMD2.js'
import type { MD2Frame, MD2Header, MD2ModelData } from './types.js'

/**
 * What `writeMD2` reads from a model. A parsed or created `MD2Model` fits; only the skin size is taken
 * from the header, every count and offset is recomputed from the data.
 */
export type WritableMD2 = Pick<MD2ModelData, 'skins' | 'st' | 'triangles' | 'frames'> & {
  header: Pick<MD2Header, 'skinWidth' | 'skinHeight'>
  /** Kept when sound (see `WriteMD2Options.glCommands`); built when absent or empty. */
  glCommandData?: Int32Array
  name?: string
}

export interface WriteMD2Options {
  /**
   * `'keep'` (default): write the model's own GL commands when they are sound (every command complete,
   * every index in range, a 0 terminator), else build them with `buildGlCommands`.
   * `'rebuild'`: always build them, as qdata would. Use it after editing triangles or st: kept commands
   * are written as they are, not checked against the triangles.
   */
  glCommands?: 'keep' | 'rebuild'
  /**
   * Told what the file will carry that Quake II itself would refuse or misdraw (past its engine limits,
   * normal indices past its table) and when unsound GL commands were rebuilt. The file is written anyway.
   */
  onWarning?: (message: string) => void
}

const MAX_INT32 = 0x7fffffff

/** The counts a layout is computed from. */
export type MD2Counts = Pick<
  MD2Header,
  'skinWidth' | 'skinHeight' | 'numSkins' | 'numVertices' | 'numST' | 'numTris' | 'numGlCmds' | 'numFrames'
>

/**
 * The header `writeMD2` writes for these counts: qdata's order (header, skins, st, triangles, frames,
 * GL commands), no gaps, `offsetEnd` = file length.
 */
export function md2Header(counts: MD2Counts): MD2Header {
  const frameSize = spec.FRAME_HEADER_SIZE + spec.VERTEX_SIZE * counts.numVertices
  const offsetSkins = spec.HEADER_SIZE
  const offsetST = offsetSkins + counts.numSkins * spec.SKIN_NAME_SIZE
  const offsetTris = offsetST + counts.numST * spec.ST_SIZE
  const offsetFrames = offsetTris + counts.numTris * spec.TRIANGLE_SIZE
  const offsetGlCmds = offsetFrames + counts.numFrames * frameSize
  const offsetEnd = offsetGlCmds + counts.numGlCmds * 4
  return {
    ident: spec.MD2_IDENT,
    version: spec.MD2_VERSION,
    skinWidth: counts.skinWidth,
    skinHeight: counts.skinHeight,
    frameSize,
    numSkins: counts.numSkins,
    numVertices: counts.numVertices,
    numST: counts.numST,
    numTris: counts.numTris,
    numGlCmds: counts.numGlCmds,
    numFrames: counts.numFrames,
    offsetSkins,
    offsetST,
    offsetTris,
    offsetFrames,
    offsetGlCmds,
    offsetEnd,
  }
}

function unwritable(message: string, section: string, file: string | undefined): never {
  throw new MD2Error('UNWRITABLE', message, { section, file })
}

/**
 * A name as MD2 stores it: one byte per character (the parser reads bytes as latin1), NUL-terminated.
 * Refuses what would not read back the same: too long, a NUL inside, characters past U+00FF.
 */
function checkName(name: string, maxLength: number, what: string, section: string, file: string | undefined): void {
  if (name.length > maxLength) {
    unwritable(`${what} "${name}" has ${name.length} bytes; at most ${maxLength} fit before the terminating NUL`, section, file)
  }
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i)
    if (code === 0 || code > 0xff) {
      unwritable(
        `${what} ${JSON.stringify(name)} has character U+${code.toString(16).padStart(4, '0')} at ${i}, which a byte name cannot hold`,
        section,
        file,
      )
    }
  }
}

function checkSkinSize(model: WritableMD2): void {
  const { skinWidth, skinHeight } = model.header
  for (const [value, what] of [
    [skinWidth, 'skinWidth'],
    [skinHeight, 'skinHeight'],
  ] as const) {
    if (!Number.isInteger(value) || value < 1 || value > MAX_INT32) {
      unwritable(`${what} ${value} is not a positive int32: texture coordinates could not be mapped`, 'header', model.name)
    }
  }
}

/** The vertex count all frames share; refuses frames that disagree. */
function vertexCount(model: WritableMD2): number {
  const first = model.frames[0]
  if (!first) throw new MD2Error('EMPTY', 'the model has no frames', { section: 'frames', file: model.name })
  const bytes = first.vertices.length
  if (bytes % spec.VERTEX_SIZE !== 0) {
    throw new MD2Error('BAD_ARGUMENT', `frame 0 holds ${bytes} vertex bytes, not a multiple of ${spec.VERTEX_SIZE}`, {
      section: 'frames',
      file: model.name,
    })
  }
  model.frames.forEach((frame, index) => {
    if (frame.vertices.length !== bytes) {
      throw new MD2Error('BAD_ARGUMENT', `frame ${index} holds ${frame.vertices.length} vertex bytes, frame 0 holds ${bytes}`, {
        section: 'frames',
        file: model.name,
      })
    }
  })
  return bytes / spec.VERTEX_SIZE
}

function checkCounts(model: WritableMD2, numVertices: number): void {
  const file = model.name
  if (model.st.length % 2 !== 0)
    throw new MD2Error('BAD_ARGUMENT', `st holds ${model.st.length} numbers, not pairs`, { section: 'st', file })
  if (model.triangles.length % 6 !== 0) {
    throw new MD2Error('BAD_ARGUMENT', `triangles hold ${model.triangles.length} numbers, not 6 per triangle`, {
      section: 'triangles',
      file,
    })
  }
  const empty: [number, string, string][] = [
    [numVertices, 'vertices', 'frames'],
    [model.st.length, 'texture coordinates', 'st'],
    [model.triangles.length, 'triangles', 'triangles'],
  ]
  for (const [count, what, section] of empty) {
    if (count === 0) throw new MD2Error('EMPTY', `the model has no ${what}`, { section, file })
  }
  // Triangles address vertices and st with uint16: one more could not be referred to.
  if (numVertices > spec.MAX_MD2_INDEXED)
    unwritable(`${numVertices} vertices: uint16 triangle indices address at most ${spec.MAX_MD2_INDEXED}`, 'frames', file)
  const numST = model.st.length / 2
  if (numST > spec.MAX_MD2_INDEXED)
    unwritable(`${numST} texture coordinates: uint16 triangle indices address at most ${spec.MAX_MD2_INDEXED}`, 'st', file)
}

function checkTriangles(model: WritableMD2, numVertices: number): void {
  const { triangles } = model
  const numST = model.st.length / 2
  for (let i = 0; i < triangles.length; i += 6) {
    for (let k = 0; k < 3; k++) {
      const xyz = triangles[i + k]!
      const st = triangles[i + 3 + k]!
      if (xyz >= numVertices)
        throw new MD2Error('BAD_INDEX', `triangle ${i / 6} uses vertex ${xyz}, the model has ${numVertices}`, {
          section: 'triangles',
          file: model.name,
        })
      if (st >= numST)
        throw new MD2Error('BAD_INDEX', `triangle ${i / 6} uses texture coordinate ${st}, the model has ${numST}`, {
          section: 'triangles',
          file: model.name,
        })
    }
  }
}

/**
 * Scale and translate are stored as float32, and positions (v × scale + translate, v up to 255) are
 * decoded as float32: what is not finite there cannot be read back (the parser refuses it too).
 */
function checkFrames(model: WritableMD2): void {
  model.frames.forEach((frame, index) => {
    checkName(frame.name, spec.MAX_FRAME_NAME_LENGTH, `frame ${index} name`, 'frames', model.name)
    for (const [vector, what] of [
      [frame.scale, 'scale'],
      [frame.translate, 'translate'],
    ] as const) {
      if (!vector.every((value) => Number.isFinite(Math.fround(value)))) {
        unwritable(
          `frame ${index} ${what} (${vector.join(', ')}) is not a finite float32: its positions cannot be stored`,
          'frames',
          model.name,
        )
      }
    }
    for (let k = 0; k < 3; k++) {
      const far = 255 * Math.fround(frame.scale[k]!) + Math.fround(frame.translate[k]!)
      if (!Number.isFinite(Math.fround(far))) {
        unwritable(`frame ${index} positions reach ${far} on axis ${'xyz'[k]}, past the float32 range`, 'frames', model.name)
      }
    }
  })
}

function engineWarnings(model: WritableMD2, numVertices: number): string[] {
  // Same wording as the parser, so a written file reads back with the warnings it was written with.
  const checks: [number, number, string][] = [
    [model.triangles.length / 6, spec.ENGINE_LIMITS.triangles, 'triangles'],
    [numVertices, spec.ENGINE_LIMITS.vertices, 'vertices'],
    [model.st.length / 2, spec.ENGINE_LIMITS.st, 'texture coordinates'],
    [model.frames.length, spec.ENGINE_LIMITS.frames, 'frames'],
    [model.skins.length, spec.ENGINE_LIMITS.skins, 'skins'],
    [model.header.skinHeight, spec.ENGINE_LIMITS.skinHeight, 'texels of skin height'],
  ]
  const warnings: string[] = []
  for (const [value, limit, what] of checks) {
    if (value > limit) warnings.push(`${value} ${what}: past Quake II's engine limit of ${limit}`)
  }
  return warnings
}

function normalWarning(model: WritableMD2): string[] {
  let bad = 0
  for (const frame of model.frames) {
    const vertices = frame.vertices
    for (let i = 3; i < vertices.length; i += 4) if (vertices[i]! >= NUM_VERTEX_NORMALS) bad++
  }
  return bad > 0 ? [`${bad} vertices have normal indices of ${NUM_VERTEX_NORMALS} or more, past Quake II's table; written as they are`] : []
}

/**
 * Checks that `writeMD2` can write the model, throwing `MD2Error` when it cannot: `EMPTY` (no frames,
 * vertices, st or triangles), `UNWRITABLE` (more than 65,535 vertices or st, a frame name over 15 bytes,
 * a skin name over 63, a skin size that is not a positive integer, a non-finite scale or translate),
 * `BAD_INDEX` (a triangle refers to a missing vertex or st), `BAD_ARGUMENT` (frames of different sizes).
 * Returns the warnings: counts past Quake II's engine limits (2,048 vertices, 4,096 triangles, 512
 * frames, 32 skins, 2,048 st, skins taller than 480) and normal indices past its table.
 */
export function checkWritable(model: WritableMD2): { numVertices: number; warnings: string[] } {
  checkSkinSize(model)
  const numVertices = vertexCount(model)
  checkCounts(model, numVertices)
  checkTriangles(model, numVertices)
  checkFrames(model)
  model.skins.forEach((skin, index) => checkName(skin, spec.MAX_SKIN_NAME_LENGTH, `skin ${index}`, 'skins', model.name))
  return { numVertices, warnings: [...engineWarnings(model, numVertices), ...normalWarning(model)] }
}

/** The model's own GL commands when they may be kept, else null (with the reason in `warnings`). */
function keptGlCommands(model: WritableMD2, numVertices: number, warnings: string[]): Int32Array | null {
  const data = model.glCommandData
  if (!data || data.length === 0) return null
  let decoded: ReturnType<typeof decodeGlCommands>
  try {
    decoded = decodeGlCommands(data, numVertices)
  } catch (error) {
    if (!(error instanceof MD2Error)) throw error
    warnings.push(`the model's GL commands are unsound (${error.reason}); rebuilt`)
    return null
  }
  if (!decoded.terminated) {
    warnings.push("the model's GL commands have no 0 terminator; rebuilt")
    return null
  }
  return data
}

function writeName(bytes: Uint8Array, offset: number, name: string): void {
  // The buffer is zeroed: the rest of the field is NUL padding.
  for (let i = 0; i < name.length; i++) bytes[offset + i] = name.charCodeAt(i)
}

/**
 * Writes an MD2 file in the layout Quake II's compiler (qdata) writes: header, skins (64-byte
 * NUL-padded names), st, triangles, frames (quantized bytes, scale and translate copied exactly, names
 * NUL-padded to 16 bytes), GL commands; no gaps, `offsetEnd` = length. GL commands are the model's own
 * when sound, else built as qdata builds them (see `WriteMD2Options.glCommands`).
 * `parseMD2(writeMD2(m))` gives back `m`'s skins, st, triangles, frames and kept GL commands.
 *
 * Throws `MD2Error` for what cannot be written (see `checkWritable`); reports engine-limit warnings
 * through `options.onWarning`.
 */
export function writeMD2(model: WritableMD2, options: WriteMD2Options = {}): Uint8Array {
  const { numVertices, warnings } = checkWritable(model)
  const kept = options.glCommands === 'rebuild' ? null : keptGlCommands(model, numVertices, warnings)
  const glCommands = kept ?? buildGlCommands(model)

  const header = md2Header({
    skinWidth: model.header.skinWidth,
    skinHeight: model.header.skinHeight,
    numSkins: model.skins.length,
    numVertices,
    numST: model.st.length / 2,
    numTris: model.triangles.length / 6,
    numGlCmds: glCommands.length,
    numFrames: model.frames.length,
  })
  if (header.offsetEnd > MAX_INT32) {
    unwritable(`the file would take ${header.offsetEnd} bytes; int32 offsets reach ${MAX_INT32}`, 'header', model.name)
  }
  for (const warning of warnings) options.onWarning?.(warning)

  const bytes = new Uint8Array(header.offsetEnd)
  const view = new DataView(bytes.buffer)
  writeHeader(view, header)
  model.skins.forEach((skin, i) => writeName(bytes, header.offsetSkins + i * spec.SKIN_NAME_SIZE, skin))
  writeST(view, header.offsetST, model.st)
  writeTriangles(view, header.offsetTris, model.triangles)
  writeFrameRecords(bytes, view, header.offsetFrames, header.frameSize, model.frames)
  writeGlCommands(view, header.offsetGlCmds, glCommands)
  return bytes
}

function writeHeader(view: DataView, header: MD2Header): void {
  spec.HEADER_FIELDS.forEach((field, i) => view.setInt32(i * 4, header[field], true))
}

function writeST(view: DataView, offset: number, st: Int16Array): void {
  for (let i = 0; i < st.length; i++) view.setInt16(offset + i * 2, st[i]!, true)
}

function writeTriangles(view: DataView, offset: number, triangles: Uint16Array): void {
  // In memory and on disk alike: 3 xyz indices, then 3 st indices.
  for (let i = 0; i < triangles.length; i++) view.setUint16(offset + i * 2, triangles[i]!, true)
}

/**
 * Writes frames in the file's layout (scale, translate, 16-byte NUL-padded name, vertices) into
 * `bytes` from `offsetFrames`, `frameSize` bytes each. `view` is a DataView on the same bytes.
 */
export function writeFrameRecords(
  bytes: Uint8Array,
  view: DataView,
  offsetFrames: number,
  frameSize: number,
  frames: readonly MD2Frame[],
): void {
  frames.forEach((frame, f) => {
    const offset = offsetFrames + f * frameSize
    for (let k = 0; k < 3; k++) {
      view.setFloat32(offset + k * 4, frame.scale[k]!, true)
      view.setFloat32(offset + 12 + k * 4, frame.translate[k]!, true)
    }
    writeName(bytes, offset + 24, frame.name)
    bytes.set(frame.vertices, offset + spec.FRAME_HEADER_SIZE)
  })
}

function writeGlCommands(view: DataView, offset: number, words: Int32Array): void {
  // The s,t words are float bits: copying them as int32 keeps them exact.
  for (let i = 0; i < words.length; i++) view.setInt32(offset + i * 4, words[i]!, true)
}
