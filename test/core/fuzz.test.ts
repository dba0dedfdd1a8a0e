/**
 * Fuzzing (issue 6): damaged real files must either parse into a model that is entirely usable or be
 * refused with an `MD2Error`; nothing else, and quickly. The same for the PCX and TGA skin decoders.
 *
 * Deterministic by default (a fixed seed per property, printed with every failure). Environment:
 * - `FUZZ_SEED=<n>` or `FUZZ_SEED=random`: another base seed (the failure message gives the one used);
 * - `FUZZ_RUNS=<factor>`: scales every property's number of runs (e.g. 10 for a long session).
 * A failure prints a JSON recipe (base asset + operations); save it under test/core/fixtures/fuzz/ and the
 * regression test at the end of this file replays it forever.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { MD2Error, type MD2ErrorCode } from '../../src/core/MD2Error'
import { blendFrames, decodeFrame, decodeFrameNormals } from '../../src/core/format/decodeFrame'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { decodePCX } from '../../src/core/images/pcx'
import { decodeTGA } from '../../src/core/images/tga'
import type { MD2ModelData } from '../../src/core/format/types'
import { createMD2Geometry } from '../../src/three/mesh/MD2Geometry'
import { ALL_MD2, listAssets, readAsset } from '../support/assets'
import { fuzzSeed, FUZZ_RUN_FACTOR } from '../support/fuzz'
import { encodeRLE, makePCX } from '../support/pcx'

// ---------------------------------------------------------------------------------------------
// Configuration

const BASE_SEED = fuzzSeed(0x6d6432)
const RUN_FACTOR = FUZZ_RUN_FACTOR
/** The per-call budget of the issue, for files under 1 MB. */
const TIME_LIMIT_MS = 100
const TIMED_SIZE_LIMIT = 1 << 20
/** A call at least this slow is timed twice more, keeping the fastest (a GC pause is not the parser). */
const RECHECK_MS = 15
const FIXTURES_DIR = join(import.meta.dirname, 'fixtures/fuzz')

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

type Kind = 'md2' | 'pcx' | 'tga'
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

afterAll(() => {
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
})

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
function checkMD2(bytes: Uint8Array, what: string): MD2ErrorCode | undefined {
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
function checkImage(kind: 'pcx' | 'tga', bytes: Uint8Array, what: string): MD2ErrorCode | undefined {
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

type Op =
  | { op: 'byte'; at: number; value: number }
  | { op: 'int32'; at: number; value: number }
  | { op: 'uint16'; at: number; value: number }
  | { op: 'float32'; at: number; value: number }
  | { op: 'truncate'; length: number }
  | { op: 'splice'; at: number; remove: number; insert: number[] }
  /** Header fields (by index) take each other's values, in a cycle. */
  | { op: 'rotate'; fields: number[] }

function applyOps(base: Uint8Array, ops: readonly Op[]): Uint8Array {
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

interface MD2Info {
  path: string
  bytes: Uint8Array
  length: number
  fields: number[]
  /** [start, end) byte ranges where structure lives: header, section starts, frame headers, ends. */
  hotspots: [number, number][]
  /** Lengths where a truncation is most interesting: section boundaries ± a little. */
  boundaries: number[]
}

const SECTION_ITEM = { 11: 64, 12: 4, 13: 12, 15: 4 } as const

function describeMD2(path: string): MD2Info {
  const bytes = readAsset(path)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const fields = Array.from({ length: 17 }, (_, i) => view.getInt32(i * 4, true))
  const [, , , , frameSize, numSkins, , numST, numTris, numGlCmds, numFrames, ofsSkins, ofsST, ofsTris, ofsFrames, ofsGl] = fields as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  const length = bytes.length
  const clip = (start: number, size: number): [number, number] => [
    Math.max(0, Math.min(start, length - 1)),
    Math.max(1, Math.min(start + size, length)),
  ]
  const sections: [number, number][] = [
    [ofsSkins, numSkins * SECTION_ITEM[11]],
    [ofsST, numST * SECTION_ITEM[12]],
    [ofsTris, numTris * SECTION_ITEM[13]],
    [ofsFrames, numFrames * frameSize],
    [ofsGl, numGlCmds * SECTION_ITEM[15]],
  ]
  const hotspots: [number, number][] = [[0, 68]]
  const boundaries = [0, 1, 67, 68, 69, length - 1]
  for (const [start, size] of sections) {
    if (size <= 0) continue
    hotspots.push(clip(start, 48), clip(start + size - 16, 16))
    for (const k of [-1, 0, 1, 4]) boundaries.push(start + k, start + size - k)
  }
  // Frame headers (scale, translate, name) of the first, a middle and the last frame.
  for (const f of [0, numFrames >> 1, numFrames - 1]) hotspots.push(clip(ofsFrames + f * frameSize, 40))
  return {
    path,
    bytes,
    length,
    fields,
    hotspots,
    boundaries: [...new Set(boundaries)].filter((n) => n >= 0 && n < length).sort((a, b) => a - b),
  }
}

const MD2_FILES = ALL_MD2.map(describeMD2)
const INT32_EXTREMES = [
  0,
  1,
  -1,
  2,
  3,
  40,
  44,
  64,
  67,
  68,
  69,
  255,
  256,
  2048,
  4096,
  65535,
  65536,
  2 ** 24,
  2 ** 30,
  2 ** 31 - 1,
  -(2 ** 31),
  -(2 ** 30),
  0x7ffffffc,
]
const FLOAT_EXTREMES = [
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  3.4028234663852886e38,
  -3.4028234663852886e38,
  1e38,
  1.4e36,
  1e30,
  1e20,
  -1e20,
  1.4e-45,
  -0,
  0,
  1,
  -1,
  255,
]

const byteValue = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0, 0xff, 0x7f, 0x80))

/** An int32 that is extreme for this file: fixed extremes, the length ± k, a field's value ± k, any int32. */
function int32For(info: MD2Info): fc.Arbitrary<number> {
  const near = (value: number) => fc.integer({ min: -8, max: 8 }).map((k) => (value + k) | 0)
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...INT32_EXTREMES) },
    { weight: 2, arbitrary: near(info.length) },
    { weight: 2, arbitrary: fc.constantFrom(...info.fields.slice(2)).chain(near) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: info.length * 2 }) },
    { weight: 1, arbitrary: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }) },
  )
}

function positionIn(ranges: [number, number][]): fc.Arbitrary<number> {
  return fc.constantFrom(...ranges).chain(([start, end]) => fc.integer({ min: start, max: Math.max(start, end - 1) }))
}

function byteOps(positions: fc.Arbitrary<number>, maxLength: number): fc.Arbitrary<Op[]> {
  return fc.array(fc.record({ op: fc.constant('byte' as const), at: positions, value: byteValue }), { minLength: 1, maxLength })
}

/** A header field (2..16) set to an extreme value. */
function fieldOp(info: MD2Info, fields: fc.Arbitrary<number> = fc.integer({ min: 2, max: 16 })): fc.Arbitrary<Op> {
  return fc.record({ op: fc.constant('int32' as const), at: fields.map((field) => field * 4), value: int32For(info) })
}

function structureOps(info: MD2Info): fc.Arbitrary<Op[]> {
  const at = positionIn(info.hotspots)
  return fc.array(
    fc.oneof(
      fc.record({ op: fc.constant('byte' as const), at, value: byteValue }),
      fc.record({
        op: fc.constant('uint16' as const),
        at,
        value: fc.oneof(fc.integer({ min: 0, max: 65535 }), fc.constantFrom(0, 65535, 32767, 32768)),
      }),
      fc.record({ op: fc.constant('int32' as const), at, value: int32For(info) }),
      fc.record({ op: fc.constant('float32' as const), at, value: fc.oneof(fc.constantFrom(...FLOAT_EXTREMES), fc.float()) }),
    ),
    { minLength: 1, maxLength: 6 },
  )
}

/** A file and operations on it, the file chosen among all the real MD2s. */
function onMD2(ops: (info: MD2Info) => fc.Arbitrary<Op[]>): fc.Arbitrary<{ file: string; ops: Op[] }> {
  return fc.constantFrom(...MD2_FILES).chain((info) => ops(info).map((list) => ({ file: info.path, ops: list })))
}

const md2Info = new Map(MD2_FILES.map((info) => [info.path, info]))

function checkMD2Case({ file, ops }: { file: string; ops: Op[] }): void {
  const base = md2Info.get(file)?.bytes ?? readAsset(file)
  checkMD2(applyOps(base, ops), `${file} + ${JSON.stringify(ops)}`)
}

// ---------------------------------------------------------------------------------------------
// Running a property with its seed in the failure message

function seedFor(name: string): number {
  let hash = BASE_SEED | 0
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x9e3779b1)
  return hash | 0
}

function fuzz<T>(name: string, runs: number, arbitrary: fc.Arbitrary<T>, check: (value: T) => void, recipe?: (value: T) => unknown): void {
  it(name, () => {
    const seed = seedFor(name)
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
          `rerun with FUZZ_SEED=${BASE_SEED} npx vitest run --project unit test/core/fuzz.test.ts -t "${name}"${saved}\n` +
          fc.defaultReportMessage(result) +
          `\nerror: ${result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)}`,
        { cause: result.errorInstance },
      )
    }
  })
}

const md2Recipe = (value: { file: string; ops: Op[] }) => ({ kind: 'md2', base: value.file, ops: value.ops })

// ---------------------------------------------------------------------------------------------
// MD2

describe(`parseMD2 fuzzing over ${MD2_FILES.length} real files`, () => {
  it('every real file parses and passes the checks unmodified', () => {
    for (const info of MD2_FILES) expect(checkMD2(info.bytes, info.path)).toBeUndefined()
  })

  fuzz(
    'random bytes anywhere',
    300,
    onMD2((info) => byteOps(fc.integer({ min: 0, max: info.length - 1 }), 16)),
    checkMD2Case,
    md2Recipe,
  )

  fuzz(
    'random bytes in the header',
    1000,
    onMD2(() => byteOps(fc.integer({ min: 0, max: 67 }), 8)),
    checkMD2Case,
    md2Recipe,
  )

  fuzz('bytes, shorts, ints and floats where the structure is', 1000, onMD2(structureOps), checkMD2Case, md2Recipe)

  fuzz(
    'truncations',
    400,
    onMD2((info) =>
      fc
        .oneof(fc.constantFrom(...info.boundaries), fc.integer({ min: 0, max: info.length - 1 }))
        .map((length): Op[] => [{ op: 'truncate', length }]),
    ),
    checkMD2Case,
    md2Recipe,
  )

  fuzz(
    'extreme header values (0, -1, ±2^31, file length ± k, other fields ± k)',
    1000,
    onMD2((info) => fc.array(fieldOp(info), { minLength: 1, maxLength: 4 })),
    checkMD2Case,
    md2Recipe,
  )

  fuzz(
    'shuffled and swapped offsets and counts',
    600,
    onMD2((info) =>
      fc.oneof(
        // Offsets (11..16) take each other's values.
        fc.shuffledSubarray([11, 12, 13, 14, 15, 16], { minLength: 2 }).map((fields): Op[] => [{ op: 'rotate', fields }]),
        // Any two fields from skin size to offsets swap, possibly with one more extreme value.
        fc
          .tuple(
            fc.shuffledSubarray([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16], { minLength: 2, maxLength: 3 }),
            fc.option(fieldOp(info), { nil: undefined }),
          )
          .map(([fields, extra]): Op[] => (extra ? [{ op: 'rotate', fields }, extra] : [{ op: 'rotate', fields }])),
      ),
    ),
    checkMD2Case,
    md2Recipe,
  )

  fuzz(
    'bytes inserted or removed (everything after shifts)',
    300,
    onMD2((info) =>
      fc.array(
        fc.record({
          op: fc.constant('splice' as const),
          at: fc.oneof(positionIn(info.hotspots), fc.integer({ min: 0, max: info.length })),
          remove: fc.integer({ min: 0, max: 64 }),
          insert: fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 64 }),
        }),
        { minLength: 1, maxLength: 3 },
      ),
    ),
    checkMD2Case,
    md2Recipe,
  )

  fuzz('small synthetic files with a sane-looking header and random sections', 1500, syntheticMD2(), (value) =>
    checkMD2(value.bytes, value.what),
  )
})

/**
 * Small files built from scratch: random counts, sections laid out in a random order, random section
 * bytes with indices mostly in range (so that parsing goes deep: frames, GL commands, animations), and
 * a few header fields damaged on top.
 */
function syntheticMD2(): fc.Arbitrary<{ bytes: Uint8Array; what: string }> {
  const counts = fc.record({
    skinWidth: fc.oneof(fc.integer({ min: 1, max: 512 }), fc.constantFrom(0, -1)),
    skinHeight: fc.oneof(fc.integer({ min: 1, max: 512 }), fc.constantFrom(0, -1)),
    numSkins: fc.integer({ min: 0, max: 3 }),
    numVertices: fc.integer({ min: 1, max: 40 }),
    numST: fc.integer({ min: 1, max: 40 }),
    numTris: fc.integer({ min: 1, max: 40 }),
    numFrames: fc.integer({ min: 1, max: 12 }),
    numGlCmds: fc.integer({ min: 0, max: 120 }),
    framePadding: fc.oneof(fc.constant(0), fc.integer({ min: -8, max: 8 })),
    order: fc.shuffledSubarray([0, 1, 2, 3, 4], { minLength: 5, maxLength: 5 }),
    gap: fc.integer({ min: 0, max: 8 }),
    seed: fc.integer(),
    badIndexRate: fc.constantFrom(0, 0, 0.01, 0.2),
    tail: fc.integer({ min: -4, max: 4 }),
  })
  return fc
    .tuple(counts, fc.array(fc.tuple(fc.integer({ min: 2, max: 16 }), fc.constantFrom(...INT32_EXTREMES)), { maxLength: 2 }))
    .map(([c, damage]) => {
      const random = mulberry32(c.seed)
      const frameSize = 40 + 4 * c.numVertices + c.framePadding
      const sizes = [c.numSkins * 64, c.numST * 4, c.numTris * 12, c.numFrames * Math.max(frameSize, 0), c.numGlCmds * 4]
      const offsets = [0, 0, 0, 0, 0]
      let end = 68
      for (const section of c.order) {
        offsets[section] = end
        end += sizes[section]! + c.gap
      }
      const length = Math.max(0, end + c.tail)
      const bytes = new Uint8Array(length)
      for (let i = 68; i < length; i++) bytes[i] = (random() * 256) | 0
      const view = new DataView(bytes.buffer)
      const put32 = (at: number, value: number) => {
        if (at + 4 <= length) view.setInt32(at, value, true)
      }
      const index = (limit: number) => (random() < c.badIndexRate ? (random() * 65536) | 0 : (random() * limit) | 0)
      for (let t = 0; t < c.numTris; t++) {
        for (let k = 0; k < 6; k++) {
          const at = offsets[2]! + t * 12 + k * 2
          if (at + 2 <= length) view.setUint16(at, index(k < 3 ? c.numVertices : c.numST), true)
        }
      }
      for (let f = 0; f < c.numFrames; f++) {
        const at = offsets[3]! + f * Math.max(frameSize, 0)
        for (let k = 0; k < 6; k++) if (at + k * 4 + 4 <= length) view.setFloat32(at + k * 4, (random() - 0.5) * (k < 3 ? 2 : 200), true)
      }
      // GL commands: a plausible stream (counts, then s, t, index triples, a 0) with occasional garbage.
      let w = 0
      while (w < c.numGlCmds) {
        const n = 3 + ((random() * 6) | 0)
        put32(offsets[4]! + w++ * 4, random() < 0.5 ? n : -n)
        for (let v = 0; v < n && w < c.numGlCmds; v++) {
          w += 2
          if (w < c.numGlCmds) put32(offsets[4]! + w++ * 4, index(c.numVertices))
        }
        if (random() < 0.3 && w < c.numGlCmds) put32(offsets[4]! + w++ * 4, 0)
      }
      const header = [
        844121161,
        8,
        c.skinWidth,
        c.skinHeight,
        frameSize,
        c.numSkins,
        c.numVertices,
        c.numST,
        c.numTris,
        c.numGlCmds,
        c.numFrames,
        offsets[0]!,
        offsets[1]!,
        offsets[2]!,
        offsets[3]!,
        offsets[4]!,
        end,
      ]
      for (const [field, value] of damage) header[field] = value
      header.forEach((value, i) => put32(i * 4, value))
      return { bytes, what: `synthetic ${JSON.stringify({ ...c, damage })}` }
    })
}

function mulberry32(seed: number): () => number {
  let a = seed | 0
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

// ---------------------------------------------------------------------------------------------
// Skins: PCX (real files and synthetic true-colour ones) and TGA (synthetic, every supported type)

interface ImageSeed {
  kind: 'pcx' | 'tga'
  name: string
  bytes: Uint8Array
}

const ALL_PCX = listAssets('pcx')
const PCX_SEEDS: ImageSeed[] = [
  // Every 12th real skin by size: from 904-byte icons to 70 KB skins.
  ...ALL_PCX.map((path) => ({ path, size: readAsset(path).length }))
    .sort((a, b) => a.size - b.size)
    .filter((_, i) => i % 12 === 0)
    .map(({ path }) => ({ kind: 'pcx' as const, name: path, bytes: readAsset(path) })),
  ...[
    { planes: 3, encoding: 1 },
    { planes: 4, encoding: 1 },
    { planes: 3, encoding: 0 },
    { planes: 1, encoding: 0 },
  ].map((spec, i) => ({
    kind: 'pcx' as const,
    name: `synthetic pcx ${JSON.stringify(spec)}`,
    bytes: makeRandomPCX({ ...spec, width: 13 + i, height: 9, seed: i }),
  })),
]

/** A PCX with `planes` planes of 8 bits, rows padded to an even length, RLE or raw. */
function makeRandomPCX({
  planes,
  encoding,
  width,
  height,
  seed,
}: {
  planes: number
  encoding: number
  width: number
  height: number
  seed: number
}): Uint8Array {
  const random = mulberry32(seed)
  const bytesPerLine = width + (width % 2)
  const raw: number[] = []
  for (let i = 0; i < bytesPerLine * planes * height; i++) raw.push(random() < 0.5 ? 7 : (random() * 256) | 0)
  const palette = planes === 1 ? Array.from({ length: 768 }, () => (random() * 256) | 0) : undefined
  return makePCX({ width, height, planes, bytesPerLine, encoding, body: encoding === 0 ? raw : encodeRLE(raw), palette })
}

interface TGASpec {
  type: number
  depth: number
  mapEntry?: number
  mapLength?: number
  mapFirst?: number
  descriptor: number
  idLength: number
  width: number
  height: number
}

const TGA_SPECS: TGASpec[] = [
  { type: 2, depth: 24, descriptor: 0, idLength: 0, width: 16, height: 8 },
  { type: 2, depth: 32, descriptor: 0x28, idLength: 3, width: 7, height: 5 },
  { type: 2, depth: 16, descriptor: 0x11, idLength: 0, width: 9, height: 9 },
  { type: 2, depth: 15, descriptor: 0, idLength: 0, width: 4, height: 3 },
  { type: 10, depth: 24, descriptor: 0, idLength: 0, width: 32, height: 16 },
  { type: 10, depth: 32, descriptor: 0x38, idLength: 5, width: 11, height: 7 },
  { type: 10, depth: 16, descriptor: 0x01, idLength: 0, width: 8, height: 8 },
  { type: 1, depth: 8, mapEntry: 24, mapLength: 16, descriptor: 0, idLength: 0, width: 10, height: 6 },
  { type: 1, depth: 16, mapEntry: 32, mapLength: 300, mapFirst: 4, descriptor: 0x20, idLength: 0, width: 5, height: 5 },
  { type: 9, depth: 8, mapEntry: 16, mapLength: 32, descriptor: 0, idLength: 2, width: 12, height: 12 },
  { type: 9, depth: 8, mapEntry: 15, mapLength: 8, mapFirst: 2, descriptor: 0x10, idLength: 0, width: 6, height: 4 },
  { type: 3, depth: 8, descriptor: 0, idLength: 0, width: 8, height: 8 },
  { type: 3, depth: 16, descriptor: 0x08, idLength: 0, width: 5, height: 3 },
  { type: 11, depth: 8, descriptor: 0x20, idLength: 0, width: 20, height: 10 },
  { type: 11, depth: 16, descriptor: 0x08, idLength: 1, width: 7, height: 7 },
]

/** A TGA of the given kind with random (but valid) pixels, runs for the RLE types. */
function makeTGA(spec: TGASpec, seed: number): Uint8Array {
  const random = mulberry32(seed)
  const mapped = (spec.type & 7) === 1
  const mapLength = mapped ? (spec.mapLength ?? 16) : 0
  const mapFirst = spec.mapFirst ?? 0
  const entryBytes = Math.ceil((spec.mapEntry ?? 0) / 8)
  const pixelBytes = Math.ceil(spec.depth / 8)
  const out: number[] = []
  const u16 = (value: number) => out.push(value & 0xff, (value >> 8) & 0xff)
  out.push(spec.idLength, mapped ? 1 : 0, spec.type)
  u16(mapFirst)
  u16(mapLength)
  out.push(mapped ? spec.mapEntry! : 0)
  u16(0)
  u16(0)
  u16(spec.width)
  u16(spec.height)
  out.push(spec.depth, spec.descriptor)
  for (let i = 0; i < spec.idLength; i++) out.push((random() * 256) | 0)
  for (let i = 0; i < mapLength * entryBytes; i++) out.push((random() * 256) | 0)
  const pixel = (): number[] => {
    if (!mapped) return Array.from({ length: pixelBytes }, () => (random() < 0.7 ? 0x40 : (random() * 256) | 0))
    const index = mapFirst + ((random() < 0.7 ? 0 : random() * mapLength) | 0)
    return pixelBytes === 1 ? [index] : [index & 0xff, index >> 8]
  }
  const count = spec.width * spec.height
  if ((spec.type & 8) === 0) {
    for (let i = 0; i < count; i++) out.push(...pixel())
  } else {
    for (let i = 0; i < count;) {
      const n = Math.min(count - i, 1 + ((random() * 128) | 0))
      if (random() < 0.5) out.push(0x80 | (n - 1), ...pixel())
      else {
        out.push(n - 1)
        for (let k = 0; k < n; k++) out.push(...pixel())
      }
      i += n
    }
  }
  return Uint8Array.from(out)
}

const TGA_SEEDS: ImageSeed[] = TGA_SPECS.map((spec, i) => ({
  kind: 'tga',
  name: `synthetic tga ${JSON.stringify(spec)}`,
  bytes: makeTGA(spec, i + 1),
}))

interface ImageCase {
  kind: 'pcx' | 'tga'
  name: string
  ops: Op[]
}

function imageCases(seeds: ImageSeed[], headerSize: number): fc.Arbitrary<ImageCase> {
  return fc.constantFrom(...seeds).chain((seed) => {
    const length = seed.bytes.length
    const header = fc.integer({ min: 0, max: headerSize - 1 })
    const anywhere = fc.integer({ min: 0, max: length - 1 })
    const op: fc.Arbitrary<Op> = fc.oneof(
      { weight: 3, arbitrary: fc.record({ op: fc.constant('byte' as const), at: header, value: byteValue }) },
      {
        weight: 2,
        arbitrary: fc.record({
          op: fc.constant('uint16' as const),
          at: header,
          value: fc.oneof(fc.integer({ min: 0, max: 65535 }), fc.constantFrom(0, 1, 0xffff, 0x8000, 0x7fff, length)),
        }),
      },
      { weight: 2, arbitrary: fc.record({ op: fc.constant('byte' as const), at: anywhere, value: byteValue }) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: length - 1 }).map((n): Op => ({ op: 'truncate', length: n })) },
      {
        weight: 1,
        arbitrary: fc.record({
          op: fc.constant('splice' as const),
          at: anywhere,
          remove: fc.integer({ min: 0, max: 16 }),
          insert: fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 16 }),
        }),
      },
    )
    return fc.array(op, { minLength: 1, maxLength: 5 }).map((ops) => ({ kind: seed.kind, name: seed.name, ops }))
  })
}

const imageSeeds = new Map([...PCX_SEEDS, ...TGA_SEEDS].map((seed) => [seed.name, seed]))
function checkImageCase({ kind, name, ops }: ImageCase): void {
  const base = imageSeeds.get(name)?.bytes ?? readAsset(name)
  checkImage(kind, applyOps(base, ops), `${name} + ${JSON.stringify(ops)}`)
}
const imageRecipe = (value: ImageCase) => ({ kind: value.kind, base: value.name, ops: value.ops })

describe('skin decoder fuzzing', () => {
  it('every seed image decodes unmodified', () => {
    for (const seed of [...PCX_SEEDS, ...TGA_SEEDS]) expect(checkImage(seed.kind, seed.bytes, seed.name)).toBeUndefined()
  })

  fuzz(
    `decodePCX: damaged real and synthetic PCX files (${PCX_SEEDS.length} seeds)`,
    800,
    imageCases(PCX_SEEDS, 128),
    checkImageCase,
    imageRecipe,
  )

  fuzz(
    `decodeTGA: damaged TGA files of every supported type (${TGA_SEEDS.length} seeds)`,
    800,
    imageCases(TGA_SEEDS, 18),
    checkImageCase,
    imageRecipe,
  )

  fuzz(
    'decodeTGA and decodePCX: random headers on random bytes',
    600,
    fc.record({ kind: fc.constantFrom('pcx' as const, 'tga' as const), bytes: fc.uint8Array({ maxLength: 2048 }), magic: fc.boolean() }),
    ({ kind, bytes, magic }) => {
      const copy = bytes.slice()
      if (magic && kind === 'pcx' && copy.length > 4) copy.set([0x0a, 5, 1, 8])
      checkImage(kind, copy, `random ${kind} ${bytes.length} bytes`)
    },
  )
})

// ---------------------------------------------------------------------------------------------
// Found cases, kept as fixtures

/**
 * test/core/fixtures/fuzz/ holds what fuzzing found: `*.json` recipes (`kind`, `base` asset or synthetic
 * seed name, `ops`, optional `expect`: "ok" or an error code, optional `note`) and raw `*.md2`,
 * `*.pcx`, `*.tga` files (`name.CODE.md2` expects that code). Each must keep passing the
 * properties, and match its expected outcome.
 */
interface Recipe {
  kind: Kind
  base: string
  ops: Op[]
  expect?: 'ok' | MD2ErrorCode
  note?: string
}

const fixtures = readdirSync(FIXTURES_DIR)
  .filter((name) => /\.(json|md2|pcx|tga)$/i.test(name))
  .sort()

describe('fuzz fixtures (found cases)', () => {
  it('there are fixtures to replay', () => {
    expect(fixtures.length).toBeGreaterThan(0)
  })

  it.each(fixtures)('%s', (name) => {
    const path = join(FIXTURES_DIR, name)
    if (name.endsWith('.json')) {
      const recipe = JSON.parse(readFileSync(path, 'utf8')) as Recipe
      const base = recipe.kind === 'md2' ? readAsset(recipe.base) : (imageSeeds.get(recipe.base)?.bytes ?? readAsset(recipe.base))
      const bytes = applyOps(base, recipe.ops)
      const code = recipe.kind === 'md2' ? checkMD2(bytes, name) : checkImage(recipe.kind, bytes, name)
      if (recipe.expect !== undefined) expect(code ?? 'ok').toBe(recipe.expect)
      return
    }
    const buffer = readFileSync(path)
    const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)
    const parts = name.split('.')
    const kind = parts[parts.length - 1]!.toLowerCase() as Kind
    const code = kind === 'md2' ? checkMD2(bytes, name) : checkImage(kind, bytes, name)
    // `name.CODE.md2` or `name.ok.md2` states the expected outcome.
    const expected = parts.length > 2 ? parts[parts.length - 2] : undefined
    if (expected !== undefined) expect(code ?? 'ok').toBe(expected)
  })
})
