import { checkAnimationDefs, resolveAnimations, typeName } from './animationTable.js'
import { readLittleEndian, toBytes } from '../bytes.js'
import {
  ENGINE_LIMITS,
  HEADER_FIELDS,
  FRAME_HEADER_SIZE,
  FRAME_NAME_SIZE,
  HEADER_SIZE,
  MD2_IDENT,
  MD2_VERSION,
  SKIN_NAME_SIZE,
  ST_SIZE,
  TRIANGLE_SIZE,
  VERTEX_SIZE,
} from './spec.js'
import { MD2Error, type MD2ErrorCode } from '../MD2Error.js'
import { defineLazyFrames } from './frameStore.js'
import { NUM_VERTEX_NORMALS } from './normals.js'
import type { MD2AnimationDef, MD2GlCommand, MD2Header, MD2ModelData } from './types.js'

export interface ParseMD2Options {
  /** File name or URL, quoted in errors and kept as `model.name`. */
  name?: string
  /** An animation table to use instead of the one grouped from frame names (e.g. from a UFO:AI `.anm`). */
  animations?: readonly MD2AnimationDef[]
}

interface Source {
  bytes: Uint8Array
  view: DataView
  file: string | undefined
  warnings: string[]
}

/**
 * Parses an MD2 file. Strict about anything that would read outside the data (every count, offset
 * and index is checked against the real length before anything is allocated); lenient, with
 * `warnings`, about damage real files carry and engines ignore. Zero-copy: frames stay quantized in
 * `frameData`, a view on `data`, which must not be modified afterwards; only their names and
 * transforms are read out. `model.frames` (frame objects) is built on first read.
 */
export function parseMD2(data: ArrayBuffer | Uint8Array, options?: ParseMD2Options): MD2ModelData {
  const checked = checkOptions(options)
  const model = readMD2(data, checked)
  if (checked.leftOut) model.warnings.unshift(...checked.leftOut)
  return model
}

/**
 * `parseMD2` on options already checked (`MD2Loader`'s, whose table `setAnimationTable` checked): an app that
 * loads through the loader does not ship the options' checks twice.
 */
export function readMD2(data: ArrayBuffer | Uint8Array, options: ParseMD2Options): MD2ModelData {
  const bytes = toBytes(data, options.name)
  const source: Source = {
    bytes,
    view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    file: options.name,
    warnings: [],
  }
  const header = readHeader(source)
  checkSections(source, header)

  const skins = readSkins(source, header)
  const st = readST(source, header)
  const triangles = readTriangles(source, header)
  const frames = readFrames(source, header)
  const gl = readGlCommands(source, header)
  const animations = resolveAnimations(frames.names, options.animations, source.warnings)

  const model: MD2ModelData = defineLazyFrames({
    header,
    skins,
    st,
    triangles,
    frameNames: frames.names,
    frameTransforms: frames.transforms,
    frameData: frames.data,
    frameStride: header.frameSize,
    glCommands: gl.commands,
    glCommandData: gl.data,
    glCommandFloats: gl.floats,
    animations,
    warnings: source.warnings,
  })
  if (options.name !== undefined) model.name = options.name
  return model
}

/**
 * The options as loose JavaScript may pass them: not an object, or a name that is not a string, is a
 * `BAD_ARGUMENT`; the table is checked by `checkAnimationDefs`, as `MD2Loader.setAnimationTable` checks one (its
 * entries that are not `{ name, start, end }` left out, said in the model's warnings).
 */
function checkOptions(options: unknown): ParseMD2Options & { leftOut?: string[] } {
  if (options === undefined) return {}
  const { name, animations } = (options ?? {}) as Record<string, unknown>
  if (typeof options !== 'object' || !options || Array.isArray(options) || (name !== undefined && typeof name !== 'string'))
    throw new MD2Error('BAD_ARGUMENT', `parseMD2: options take { name?: string, animations?: [...] }, got ${typeName(options)}`, {
      section: 'options',
    })
  if (animations === undefined) return { name }
  const leftOut: string[] = []
  const kept = checkAnimationDefs(animations, 'parseMD2: animations', (_, message) => leftOut.push(message))
  return { name, animations: kept, leftOut }
}

function fail(source: Source, code: MD2ErrorCode, section: string, offset: number | undefined, message: string): never {
  throw new MD2Error(code, message, { section, offset, file: source.file })
}

function readHeader(source: Source): MD2Header {
  const { view, bytes } = source
  if (bytes.byteLength < HEADER_SIZE) {
    fail(source, 'TRUNCATED', 'header', 0, `the header needs ${HEADER_SIZE} bytes, the data has ${bytes.byteLength}`)
  }
  const header = {} as MD2Header
  HEADER_FIELDS.forEach((field, i) => {
    header[field] = view.getInt32(i * 4, true)
  })
  if (header.ident !== MD2_IDENT) {
    const magic = String.fromCharCode(...bytes.subarray(0, 4)).replace(/[^\x20-\x7e]/g, '?')
    fail(source, 'BAD_MAGIC', 'header', 0, `not an MD2 file: magic is "${magic}", expected "IDP2"`)
  }
  if (header.version !== MD2_VERSION) {
    fail(source, 'BAD_VERSION', 'header', 4, `unsupported version ${header.version}, expected ${MD2_VERSION}`)
  }
  HEADER_FIELDS.forEach((field, i) => {
    if (i >= 2 && header[field] < 0) {
      fail(source, 'OUT_OF_RANGE', 'header', i * 4, `${field} is negative (${header[field]})`)
    }
  })
  if (header.numVertices === 0) fail(source, 'EMPTY', 'header', 24, 'the model has no vertices')
  if (header.numST === 0) fail(source, 'EMPTY', 'header', 28, 'the model has no texture coordinates')
  if (header.numTris === 0) fail(source, 'EMPTY', 'header', 32, 'the model has no triangles')
  if (header.numFrames === 0) fail(source, 'EMPTY', 'header', 40, 'the model has no frames')
  if (header.skinWidth === 0 || header.skinHeight === 0) {
    fail(source, 'OUT_OF_RANGE', 'header', 8, `skin size ${header.skinWidth}×${header.skinHeight} cannot map texture coordinates`)
  }
  const minFrameSize = FRAME_HEADER_SIZE + VERTEX_SIZE * header.numVertices
  if (header.frameSize < minFrameSize) {
    fail(
      source,
      'BAD_FRAME_SIZE',
      'header',
      16,
      `frameSize ${header.frameSize} cannot hold ${header.numVertices} vertices (needs ${minFrameSize})`,
    )
  }
  warnPastEngineLimits(source, header, minFrameSize)
  return header
}

function warnPastEngineLimits(source: Source, header: MD2Header, minFrameSize: number): void {
  const checks: [number, number, string][] = [
    [header.numTris, ENGINE_LIMITS.triangles, 'triangles'],
    [header.numVertices, ENGINE_LIMITS.vertices, 'vertices'],
    [header.numST, ENGINE_LIMITS.st, 'texture coordinates'],
    [header.numFrames, ENGINE_LIMITS.frames, 'frames'],
    [header.numSkins, ENGINE_LIMITS.skins, 'skins'],
    [header.skinHeight, ENGINE_LIMITS.skinHeight, 'texels of skin height'],
  ]
  for (const [value, limit, what] of checks) {
    if (value > limit) source.warnings.push(`${value} ${what}: past Quake II's engine limit of ${limit}`)
  }
  if (header.frameSize > minFrameSize) {
    source.warnings.push(`frameSize ${header.frameSize} is larger than the ${minFrameSize} bytes the vertices need; the rest is ignored`)
  }
}

/** Every section must lie inside the data, after the header, before anything is read or allocated. */
function checkSections(source: Source, header: MD2Header): void {
  const length = source.bytes.byteLength
  const sections: [string, number, number, number][] = [
    ['skins', header.offsetSkins, header.numSkins, SKIN_NAME_SIZE],
    ['st', header.offsetST, header.numST, ST_SIZE],
    ['triangles', header.offsetTris, header.numTris, TRIANGLE_SIZE],
    ['frames', header.offsetFrames, header.numFrames, header.frameSize],
    ['glcmds', header.offsetGlCmds, header.numGlCmds, 4],
  ]
  for (const [section, offset, count, itemSize] of sections) {
    if (count === 0) continue
    if (offset < HEADER_SIZE || offset >= length) {
      fail(source, 'OUT_OF_RANGE', section, offset, `the section starts outside the data (valid: ${HEADER_SIZE}..${length - 1})`)
    }
    const end = offset + count * itemSize
    if (end > length) {
      fail(source, 'TRUNCATED', section, offset, `${count} × ${itemSize} bytes end at ${end}, past the end of the data (${length} bytes)`)
    }
  }
  if (header.offsetEnd !== length) {
    source.warnings.push(`ofs_end says ${header.offsetEnd} bytes, the data has ${length}`)
  }
}

function readName(bytes: Uint8Array, offset: number, size: number): { name: string; clean: boolean } {
  let end = offset
  const limit = offset + size
  while (end < limit && bytes[end] !== 0) end++
  let clean = true
  for (let i = end + 1; i < limit; i++) {
    if (bytes[i] !== 0) {
      clean = false
      break
    }
  }
  // Names are ASCII in practice; latin1 keeps any other byte visible rather than failing.
  let name = ''
  for (let i = offset; i < end; i++) name += String.fromCharCode(bytes[i]!)
  return { name, clean }
}

function readSkins(source: Source, header: MD2Header): string[] {
  const skins: string[] = []
  let unterminated = 0
  for (let i = 0; i < header.numSkins; i++) {
    const offset = header.offsetSkins + i * SKIN_NAME_SIZE
    const { name } = readName(source.bytes, offset, SKIN_NAME_SIZE)
    if (name.length === SKIN_NAME_SIZE) unterminated++
    skins.push(name)
  }
  if (unterminated > 0) source.warnings.push(`${unterminated} skin name(s) fill all ${SKIN_NAME_SIZE} bytes with no terminating NUL`)
  return skins
}

function readST(source: Source, header: MD2Header): Int16Array {
  return readLittleEndian(source.bytes, header.offsetST, header.numST * 2, Int16Array)
}

function readTriangles(source: Source, header: MD2Header): Uint16Array {
  const count = header.numTris * 6
  const triangles = readLittleEndian(source.bytes, header.offsetTris, count, Uint16Array)
  // A bad index would read outside the vertex or st data: refuse the file, naming the triangle.
  const { numVertices, numST } = header
  for (let i = 0; i < count; i += 6) {
    for (let k = 0; k < 3; k++) {
      const xyz = triangles[i + k]!
      const st = triangles[i + 3 + k]!
      if (xyz >= numVertices) {
        fail(
          source,
          'BAD_INDEX',
          'triangles',
          header.offsetTris + i * 2 + k * 2,
          `triangle ${i / 6} uses vertex ${xyz}, the model has ${numVertices}`,
        )
      }
      if (st >= numST) {
        fail(
          source,
          'BAD_INDEX',
          'triangles',
          header.offsetTris + i * 2 + 6 + k * 2,
          `triangle ${i / 6} uses texture coordinate ${st}, the model has ${numST}`,
        )
      }
    }
  }
  return triangles
}

interface FramesRead {
  names: string[]
  transforms: Float32Array
  data: Uint8Array
}

function readFrames(source: Source, header: MD2Header): FramesRead {
  const { bytes } = source
  const { numFrames, frameSize, numVertices } = header
  const names: string[] = new Array(numFrames)
  const transforms = new Float32Array(numFrames * 6)
  const data = bytes.subarray(header.offsetFrames, header.offsetFrames + numFrames * frameSize)
  let dirtyNames = 0
  let badNormals = 0
  let framesWithBadNormals = 0
  for (let f = 0; f < numFrames; f++) {
    const offset = header.offsetFrames + f * frameSize
    readVector(source, offset, f, 'scale', transforms, f * 6)
    readVector(source, offset + 12, f, 'translate', transforms, f * 6 + 3)
    checkFrameReach(source, offset, f, transforms, f * 6)
    const { name, clean } = readName(bytes, offset + 24, FRAME_NAME_SIZE)
    if (!clean || name.length === FRAME_NAME_SIZE) dirtyNames++
    names[f] = name
    const bad = countBadNormals(data, f * frameSize + FRAME_HEADER_SIZE, numVertices)
    if (bad > 0) {
      badNormals += bad
      framesWithBadNormals++
    }
  }
  if (dirtyNames > 0) {
    source.warnings.push(`${dirtyNames} frame name(s) carry bytes after their NUL or no NUL at all; read up to the first NUL`)
  }
  if (badNormals > 0) {
    source.warnings.push(
      `${badNormals} vertices in ${framesWithBadNormals} frame(s) have normal indices of ${NUM_VERTEX_NORMALS} or more (past the table); they are lit as straight up`,
    )
  }
  return { names, transforms, data }
}

/** Reads a float32 vector into `out` at `at`, refusing non-finite values. */
function readVector(source: Source, offset: number, frame: number, what: string, out: Float32Array, at: number): void {
  const { view } = source
  const x = view.getFloat32(offset, true)
  const y = view.getFloat32(offset + 4, true)
  const z = view.getFloat32(offset + 8, true)
  if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) {
    fail(source, 'BAD_VALUE', 'frames', offset, `frame ${frame} ${what} is not finite (${x}, ${y}, ${z})`)
  }
  out[at] = x
  out[at + 1] = y
  out[at + 2] = z
}

/**
 * Positions are `v × scale + translate` for bytes v of 0..255, kept as 32-bit floats: a finite but
 * huge scale or translate (3e38) would decode to Infinity. Refuse the frame if either end overflows.
 * `transforms[at..at+5]` hold the frame's scale then translate.
 */
function checkFrameReach(source: Source, offset: number, frame: number, transforms: Float32Array, at: number): void {
  for (let k = 0; k < 3; k++) {
    const far = 255 * transforms[at + k]! + transforms[at + 3 + k]!
    if (!Number.isFinite(Math.fround(far))) {
      fail(
        source,
        'BAD_VALUE',
        'frames',
        offset + k * 4,
        `frame ${frame} positions reach ${far} on axis ${'xyz'[k]}, past the 32-bit float range`,
      )
    }
  }
}

/** Normal indices past the table among `count` vertices of `data` from byte `start`. */
function countBadNormals(data: Uint8Array, start: number, count: number): number {
  let bad = 0
  const end = start + count * VERTEX_SIZE
  for (let i = start + 3; i < end; i += 4) if (data[i]! >= NUM_VERTEX_NORMALS) bad++
  return bad
}

interface GlCommandsRead {
  commands: MD2GlCommand[]
  data: Int32Array
  floats: Float32Array
}

const NO_GL_COMMANDS: GlCommandsRead = { commands: [], data: new Int32Array(0), floats: new Float32Array(0) }

function readGlCommands(source: Source, header: MD2Header): GlCommandsRead {
  const count = header.numGlCmds
  if (count === 0) return NO_GL_COMMANDS
  const data = readLittleEndian(source.bytes, header.offsetGlCmds, count, Int32Array)
  const floats = new Float32Array(data.buffer, data.byteOffset, count)
  let result: ReturnType<typeof decodeGlCommands>
  try {
    result = decodeGlCommands(data, header.numVertices)
  } catch (error) {
    if (!(error instanceof MD2Error)) throw error
    // Engines that draw from the triangle list never read these; the model stays usable without them.
    source.warnings.push(`GL commands dropped: ${error.reason}`)
    return NO_GL_COMMANDS
  }
  if (!result.terminated) source.warnings.push('GL commands have no 0 terminator; read to the end of the section')
  return { commands: result.commands, data, floats }
}

/**
 * Decodes the strip/fan stream. Throws `MD2Error` (`BAD_INDEX` for a command naming a vertex the model
 * lacks or fewer than 3 vertices, `TRUNCATED` for one running past the section), with the word's offset
 * in the section; callers that can do without GL commands catch it and say so in their warnings.
 */
export function decodeGlCommands(data: Int32Array, numVertices: number): { commands: MD2GlCommand[]; terminated: boolean } {
  const commands: MD2GlCommand[] = []
  const unsound = (code: MD2ErrorCode, at: number, message: string): never => {
    throw new MD2Error(code, `command at word ${at} ${message}`, { section: 'glcmds', offset: at * 4 })
  }
  let pos = 0
  while (pos < data.length) {
    const word = data[pos++]!
    if (word === 0) return { commands, terminated: true }
    const vertexCount = Math.abs(word)
    if (vertexCount < 3) unsound('BAD_INDEX', pos - 1, `has ${vertexCount} vertices`)
    if (pos + vertexCount * 3 > data.length)
      unsound('TRUNCATED', pos - 1, `needs ${vertexCount * 3} words, the section has ${data.length - pos} left`)
    for (let k = 0; k < vertexCount; k++) {
      const index = data[pos + k * 3 + 2]!
      if (index < 0 || index >= numVertices) unsound('BAD_INDEX', pos - 1, `uses vertex ${index}, the model has ${numVertices}`)
    }
    commands.push({ mode: word > 0 ? 'strip' : 'fan', start: pos, vertexCount })
    pos += vertexCount * 3
  }
  return { commands, terminated: false }
}
