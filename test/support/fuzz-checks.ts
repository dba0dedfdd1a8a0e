/**
 * Fuzzing (issue 6): damaged real files must either parse into a model that is entirely usable or be
 * refused with an `MD2Error`; nothing else, and quickly. The same for the PCX and TGA skin decoders.
 * The checks every input must pass, the mutations, and the runner of the fuzz tests in
 * test/core/fuzz-md2.test.ts, fuzz-skins.test.ts and fuzz-fixtures.test.ts.
 *
 * Deterministic by default (a fixed seed per property, printed with every failure). Environment:
 * - `FUZZ_SEED=<n>` or `FUZZ_SEED=random`: another base seed (the failure message gives the one used);
 * - `FUZZ_RUNS=<factor>`: scales every property's number of runs (e.g. 10 for a long session).
 * A failure prints a JSON recipe (base asset + operations); save it under test/core/fixtures/fuzz/ and
 * test/core/fuzz-fixtures.test.ts replays it forever.
 */
import { relative } from 'node:path'
import fc from 'fast-check'
import { expect, it } from 'vitest'
import { MD2Error, type MD2ErrorCode } from '../../src/core/MD2Error'
import { blendFrames, decodeFrame, decodeFrameNormals } from '../../src/core/format/decodeFrame'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { decodePCX } from '../../src/core/images/pcx'
import { decodeTGA } from '../../src/core/images/tga'
import type { MD2ModelData } from '../../src/core/format/types'
import { createMD2Geometry } from '../../src/three/mesh/MD2Geometry'
import { fuzzSeed, FUZZ_RUN_FACTOR } from './fuzz'

// ---------------------------------------------------------------------------------------------
// Configuration

const BASE_SEED = fuzzSeed(0x6d6432)
const RUN_FACTOR = FUZZ_RUN_FACTOR
/** The per-call budget of the issue, for files under 1 MB. */
const TIME_LIMIT_MS = 100
const TIMED_SIZE_LIMIT = 1 << 20
/** A call at least this slow is timed twice more, keeping the fastest (a GC pause is not the parser). */
const RECHECK_MS = 15

/** Every code `MD2Error` declares; the type check below fails if errors.ts gains one not listed here. */
const _ALL_CODES = [
  'BAD_MAGIC',
  'BAD_VERSION',
  'TRUNCATED',
  'OUT_OF_RANGE',
  'BAD_INDEX',
  'EMPTY',
  'BAD_FRAME_SIZE',
  'BAD_VALUE',
  'BAD_IMAGE',
  'UNWRITABLE',
  'BAD_ARGUMENT',
  'LOAD_FAILED',
  'UNSAFE_PATH',
  'UNSUPPORTED',
] as const satisfies readonly MD2ErrorCode[]
const everyCodeListed: [Exclude<MD2ErrorCode, (typeof _ALL_CODES)[number]>] extends [never] ? true : false = true
void everyCodeListed
/** What the parser may say about bytes (never UNWRITABLE, LOAD_FAILED, BAD_IMAGE; BAD_ARGUMENT is for non-buffers). */
const PARSE_CODES: readonly MD2ErrorCode[] = _ALL_CODES.slice(0, _ALL_CODES.indexOf('BAD_IMAGE'))
const IMAGE_CODES: readonly MD2ErrorCode[] = ['BAD_IMAGE']

// ---------------------------------------------------------------------------------------------
// Statistics (printed at the end: the maximum time per call is part of the report)

export type Kind = 'md2' | 'pcx' | 'tga'
interface Stats {
  calls: number
  accepted: number
  codes: Record<string, number>
  maxMs: number
  maxWhat: string
  maxBytes: number
  /** The slowest single call, pauses of the runtime (GC, JIT) included. */
  maxRawMs: number
}
const stats: Record<Kind, Stats> = {
  md2: newStats(),
  pcx: newStats(),
  tga: newStats(),
}
function newStats(): Stats {
  return { calls: 0, accepted: 0, codes: {}, maxMs: 0, maxWhat: '', maxBytes: 0, maxRawMs: 0 }
}

/** Prints what the fuzz tests of a file saw (register it with `afterAll`). */
export function logFuzzStats(): void {
  for (const [kind, s] of Object.entries(stats)) {
    if (s.calls === 0) continue
    const codes = Object.entries(s.codes)
      .sort((a, b) => b[1] - a[1])
      .map(([code, n]) => `${code} ${n}`)
      .join(', ')
    console.log(
      `fuzz ${kind}: ${s.calls} calls (seed ${BASE_SEED}), ${s.accepted} accepted; refused: ${codes}; ` +
        `slowest call ${s.maxMs.toFixed(2)} ms (${s.maxWhat.slice(0, 160)}, ${s.maxBytes} bytes; ` +
        `${s.maxRawMs.toFixed(2)} ms with runtime pauses); files of 1 MB or more not timed`,
    )
  }
}

// ---------------------------------------------------------------------------------------------
// The properties every input must satisfy

function expectDeclaredError(error: unknown, allowed: readonly MD2ErrorCode[], what: string): MD2ErrorCode {
  if (!(error instanceof MD2Error)) {
    const name = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
    throw new Error(`${what}: threw ${name}, not an MD2Error`, { cause: error })
  }
  if (!allowed.includes(error.code)) throw new Error(`${what}: MD2Error code ${error.code} is not one of ${allowed.join(', ')}`)
  if (typeof error.message !== 'string' || error.message === '') throw new Error(`${what}: MD2Error without a message`)
  return error.code
}

/**
 * Runs `call` once and times it (files under 1 MB). A slow call is measured twice more (a garbage
 * collection or a busy machine can stall one call); it fails only if it is over the limit every time.
 */
function timed<T>(kind: Kind, what: string, bytes: Uint8Array, call: () => T): { value?: T; error?: unknown } {
  const once = (): { value?: T; error?: unknown; ms: number } => {
    const start = performance.now()
    try {
      const value = call()
      return { value, ms: performance.now() - start }
    } catch (error) {
      return { error, ms: performance.now() - start }
    }
  }
  const first = once()
  const s = stats[kind]
  s.calls++
  if (bytes.length >= TIMED_SIZE_LIMIT) return first
  s.maxRawMs = Math.max(s.maxRawMs, first.ms)
  let ms = first.ms
  // Anything slow is measured again: what stays slow is the parser's, not a pause of the runtime.
  for (let i = 0; i < 2 && ms >= RECHECK_MS; i++) ms = Math.min(ms, once().ms)
  if (ms >= TIME_LIMIT_MS)
    throw new Error(`${what}: ${kind} call took ${ms.toFixed(1)} ms on ${bytes.length} bytes (limit ${TIME_LIMIT_MS} ms)`)
  if (ms > s.maxMs) {
    s.maxMs = ms
    s.maxWhat = what
    s.maxBytes = bytes.length
  }
  return first
}

function count(kind: Kind, code: string | undefined): void {
  const s = stats[kind]
  if (code === undefined) s.accepted++
  else s.codes[code] = (s.codes[code] ?? 0) + 1
}

function fail(what: string, message: string): never {
  throw new Error(`${what}: ${message}`)
}

function allFinite(values: ArrayLike<number>): number {
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i]!)) return i
  return -1
}

/** parseMD2 returns a usable model or throws a declared MD2Error; returns the code or undefined. */
export function checkMD2(bytes: Uint8Array, what: string): MD2ErrorCode | undefined {
  const result = timed('md2', what, bytes, () => parseMD2(bytes, { name: what }))
  if (result.error !== undefined || result.value === undefined) {
    const code = expectDeclaredError(result.error, PARSE_CODES, what)
    count('md2', code)
    return code
  }
  checkModel(result.value, what)
  count('md2', undefined)
  return undefined
}

function checkModel(model: MD2ModelData, what: string): void {
  const { header, frames, triangles, st, skins, glCommands, glCommandData, glCommandFloats } = model
  const { numVertices, numST, numTris, numFrames } = header
  if (frames.length !== numFrames || frames.length === 0) fail(what, `${frames.length} frames, header says ${numFrames}`)
  if (triangles.length !== numTris * 6 || numTris === 0) fail(what, `${triangles.length / 6} triangles, header says ${numTris}`)
  if (st.length !== numST * 2 || numST === 0) fail(what, `${st.length / 2} st, header says ${numST}`)
  if (skins.length !== header.numSkins) fail(what, `${skins.length} skins, header says ${header.numSkins}`)
  if (numVertices <= 0) fail(what, `${numVertices} vertices`)
  for (let i = 0; i < triangles.length; i += 6) {
    for (let k = 0; k < 3; k++) {
      if (triangles[i + k]! >= numVertices) fail(what, `triangle ${i / 6} uses vertex ${triangles[i + k]} of ${numVertices}`)
      if (triangles[i + 3 + k]! >= numST) fail(what, `triangle ${i / 6} uses st ${triangles[i + 3 + k]} of ${numST}`)
    }
  }
  // Every frame decodes to finite positions and normals of the right length.
  const length = numVertices * 3
  const positions = decodeFrame(model, 0)
  if (!(positions instanceof Float32Array) || positions.length !== length)
    fail(what, `frame 0 decodes to ${positions.length} floats, not ${length}`)
  const normals = new Float32Array(length)
  for (let f = 0; f < frames.length; f++) {
    const frame = frames[f]!
    if (frame.vertices.length !== numVertices * 4) fail(what, `frame ${f} holds ${frame.vertices.length} vertex bytes`)
    if (typeof frame.name !== 'string') fail(what, `frame ${f} has no name`)
    decodeFrame(model, f, positions)
    const bad = allFinite(positions)
    if (bad >= 0) fail(what, `frame ${f} decodes to ${positions[bad]} at float ${bad} (scale ${frame.scale}, translate ${frame.translate})`)
    decodeFrameNormals(model, f, normals)
    if (allFinite(normals) >= 0) fail(what, `frame ${f} has a non-finite normal`)
  }
  const blended = blendFrames(model, 0, frames.length - 1, 0.5)
  if (allFinite(blended) >= 0) fail(what, 'blending the first and last frames gives a non-finite position')
  // GL commands reference existing vertices and stay inside their words.
  if (glCommandFloats.length !== glCommandData.length) fail(what, 'glCommandFloats and glCommandData differ in length')
  for (const command of glCommands) {
    if (command.mode !== 'strip' && command.mode !== 'fan') fail(what, `GL command mode ${String(command.mode)}`)
    if (command.vertexCount < 3 || command.start < 1 || command.start + command.vertexCount * 3 > glCommandData.length) {
      fail(what, `GL command at ${command.start} with ${command.vertexCount} vertices overruns ${glCommandData.length} words`)
    }
    for (let k = 0; k < command.vertexCount; k++) {
      const index = glCommandData[command.start + k * 3 + 2]!
      if (!(index >= 0 && index < numVertices)) fail(what, `GL command at ${command.start} uses vertex ${index} of ${numVertices}`)
    }
  }
  for (const animation of model.animations) {
    const { start, end, fps } = animation
    if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start <= end && end < frames.length && Number.isFinite(fps))) {
      fail(what, `animation ${animation.name} ${start}–${end} at ${fps} fps`)
    }
  }
  if (!model.warnings.every((warning) => typeof warning === 'string')) fail(what, 'a warning is not a string')
  // And it renders: the three.js geometry has finite positions, in-range indices and finite bounds.
  const geometry = createMD2Geometry(model)
  try {
    const position = geometry.getAttribute('position')
    if (allFinite(position.array as Float32Array) >= 0) fail(what, 'the geometry has a non-finite position')
    const index = geometry.getIndex()!.array
    for (let i = 0; i < index.length; i++) if (index[i]! >= position.count) fail(what, `geometry index ${index[i]} of ${position.count}`)
    const sphere = geometry.boundingSphere!
    if (!Number.isFinite(sphere.radius) || allFinite(sphere.center.toArray()) >= 0) fail(what, 'the bounding sphere is not finite')
  } finally {
    geometry.dispose()
  }
}

/** A skin decoder returns a whole RGBA image or throws BAD_IMAGE. */
export function checkImage(kind: 'pcx' | 'tga', bytes: Uint8Array, what: string): MD2ErrorCode | undefined {
  const decode = kind === 'pcx' ? decodePCX : decodeTGA
  const result = timed(kind, what, bytes, () => decode(bytes, { name: what }))
  if (result.error !== undefined || result.value === undefined) {
    const code = expectDeclaredError(result.error, IMAGE_CODES, what)
    count(kind, code)
    return code
  }
  const { width, height, data } = result.value
  if (!(Number.isInteger(width) && width > 0 && Number.isInteger(height) && height > 0)) fail(what, `image is ${width}×${height}`)
  if (!(data instanceof Uint8Array) || data.length !== width * height * 4) fail(what, `${data.length} bytes of RGBA for ${width}×${height}`)
  count(kind, undefined)
  return undefined
}

// ---------------------------------------------------------------------------------------------
// Mutations: small, printable, shrinkable descriptions applied to a copy of a real file

export type Op =
  | { op: 'byte'; at: number; value: number }
  | { op: 'int32'; at: number; value: number }
  | { op: 'uint16'; at: number; value: number }
  | { op: 'float32'; at: number; value: number }
  | { op: 'truncate'; length: number }
  | { op: 'splice'; at: number; remove: number; insert: number[] }
  /** Header fields (by index) take each other's values, in a cycle. */
  | { op: 'rotate'; fields: number[] }

export function applyOps(base: Uint8Array, ops: readonly Op[]): Uint8Array {
  let bytes = base.slice()
  for (const op of ops) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    switch (op.op) {
      case 'byte':
        if (op.at < bytes.length) bytes[op.at] = op.value
        break
      case 'uint16':
        if (op.at + 2 <= bytes.length) view.setUint16(op.at, op.value, true)
        break
      case 'int32':
        if (op.at + 4 <= bytes.length) view.setInt32(op.at, op.value, true)
        break
      case 'float32':
        if (op.at + 4 <= bytes.length) view.setFloat32(op.at, op.value, true)
        break
      case 'truncate':
        bytes = bytes.slice(0, op.length)
        break
      case 'splice': {
        const at = Math.min(op.at, bytes.length)
        const out = new Uint8Array(bytes.length - Math.min(op.remove, bytes.length - at) + op.insert.length)
        out.set(bytes.subarray(0, at))
        out.set(op.insert, at)
        out.set(bytes.subarray(Math.min(at + op.remove, bytes.length)), at + op.insert.length)
        bytes = out
        break
      }
      case 'rotate': {
        const fields = op.fields.filter((field) => field * 4 + 4 <= bytes.length)
        const values = fields.map((field) => view.getInt32(field * 4, true))
        fields.forEach((field, i) => view.setInt32(field * 4, values[(i + 1) % values.length]!, true))
        break
      }
    }
  }
  return bytes
}

export const byteValue = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0, 0xff, 0x7f, 0x80))

export function mulberry32(seed: number): () => number {
  let a = seed | 0
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

// ---------------------------------------------------------------------------------------------
// Running a property with its seed in the failure message

function seedFor(name: string): number {
  let hash = BASE_SEED | 0
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x9e3779b1)
  return hash | 0
}

export function fuzz<T>(
  name: string,
  runs: number,
  arbitrary: fc.Arbitrary<T>,
  check: (value: T) => void,
  recipe?: (value: T) => unknown,
): void {
  it(name, () => {
    const seed = seedFor(name)
    const testFile = relative(process.cwd(), expect.getState().testPath ?? '')
    const numRuns = Math.max(1, Math.round(runs * RUN_FACTOR))
    const result = fc.check(
      fc.property(arbitrary, (value) => {
        check(value)
      }),
      { seed, numRuns },
    )
    if (result.failed) {
      const example = result.counterexample?.[0] as T | undefined
      const saved =
        example !== undefined && recipe ? `\nkeep it: save as test/core/fixtures/fuzz/<name>.json: ${JSON.stringify(recipe(example))}` : ''
      throw new Error(
        `fuzz property "${name}" failed (base seed ${BASE_SEED}, property seed ${seed}, path ${result.counterexamplePath}); ` +
          `rerun with FUZZ_SEED=${BASE_SEED} npx vitest run --project unit ${testFile} -t "${name}"${saved}\n` +
          fc.defaultReportMessage(result) +
          `\nerror: ${result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)}`,
        { cause: result.errorInstance },
      )
    }
  })
}
