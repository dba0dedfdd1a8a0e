/**
 * Limits (issue 6): a file that declares more than it can hold is refused, with the right code,
 * before anything large is allocated. Proved three ways for every case: a spy on the typed-array,
 * ArrayBuffer and Array constructors records every allocation the parser asks for; the process's
 * ArrayBuffer memory does not grow; and the refusal is immediate.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { MD2Error, type MD2ErrorCode } from '../../../src/core/MD2Error'
import { decodeFrame } from '../../../src/core/format/decodeFrame'
import { parseMD2 } from '../../../src/core/format/parseMD2'
import type { MD2ModelData } from '../../../src/core/format/types'
import { decodePCX } from '../../../src/core/images/pcx'
import { decodeTGA } from '../../../src/core/images/tga'
import { readAsset } from '../../support/assets'
import { HEADER_FIELDS, type HeaderField } from '../../support/md2-bytes'
import { md2Header } from '../../../src/core/format/writeMD2'

// ---------------------------------------------------------------------------------------------
// Allocation spy

const SPIED = [
  'ArrayBuffer',
  'SharedArrayBuffer',
  'Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int8Array',
  'Uint16Array',
  'Int16Array',
  'Uint32Array',
  'Int32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
] as const

interface Allocation {
  type: string
  bytes: number
}

type Globals = Record<string, unknown>
const originals = new Map<string, unknown>()

/**
 * Runs `call` with every array constructor replaced by a recording proxy. A typed array or buffer
 * made from a length counts its bytes; one made from another array counts its elements; `Array(n)`
 * counts 8 bytes per slot. Views on existing buffers allocate nothing and count 0.
 */
function recordAllocations<T>(call: () => T): { allocations: Allocation[]; result?: T; error?: unknown } {
  const allocations: Allocation[] = []
  const globals = globalThis as unknown as Globals
  const size = (type: string, args: unknown[]): number => {
    const [first] = args
    const perElement =
      type === 'Array' ? 8 : type.endsWith('Buffer') ? 1 : ((globals[type] as { BYTES_PER_ELEMENT?: number }).BYTES_PER_ELEMENT ?? 1)
    if (typeof first === 'number') return type === 'Array' && args.length > 1 ? args.length * 8 : first * perElement
    if (first instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && first instanceof SharedArrayBuffer)) return 0
    if (first !== null && typeof first === 'object' && 'length' in first) return Number((first as { length: number }).length) * perElement
    return args.length * perElement
  }
  for (const type of SPIED) {
    const original = globals[type] as (new (...args: unknown[]) => unknown) | undefined
    if (original === undefined) continue
    originals.set(type, original)
    globals[type] = new Proxy(original, {
      construct(target, args, newTarget) {
        allocations.push({ type, bytes: size(type, args) })
        return Reflect.construct(target, args, newTarget === globals[type] ? target : newTarget)
      },
      apply(target, thisArg, args) {
        if (type === 'Array') allocations.push({ type, bytes: size(type, args) })
        return Reflect.apply(target, thisArg, args)
      },
    })
  }
  try {
    return { allocations, result: call() }
  } catch (error) {
    return { allocations, error }
  } finally {
    restoreGlobals()
  }
}

function restoreGlobals(): void {
  const globals = globalThis as unknown as Globals
  for (const [type, original] of originals) globals[type] = original
  originals.clear()
}
afterEach(restoreGlobals)

// ---------------------------------------------------------------------------------------------
// A tiny, valid model to lie about

const FIELDS = HEADER_FIELDS
type Field = HeaderField
type Header = Record<Field, number>

/** 304 bytes: 1 skin, 3 st, 1 triangle, 2 frames of 3 vertices, a fan and its terminator. */
function tinyModel(): { bytes: Uint8Array; header: Header } {
  // The layout as qdata writes it (skins, st, triangles, frames, GL commands), from the writer's own rule.
  const header: Header = md2Header({
    skinWidth: 64,
    skinHeight: 64,
    numSkins: 1,
    numVertices: 3,
    numST: 3,
    numTris: 1,
    numGlCmds: 11,
    numFrames: 2,
  })
  const { frameSize, offsetSkins, offsetST, offsetTris, offsetFrames, offsetGlCmds, offsetEnd } = header
  const bytes = new Uint8Array(offsetEnd)
  const view = new DataView(bytes.buffer)
  bytes.set(new TextEncoder().encode('models/tiny/skin.pcx'), offsetSkins)
  ;[0, 0, 63, 0, 0, 63].forEach((value, i) => view.setInt16(offsetST + i * 2, value, true))
  ;[0, 1, 2, 0, 1, 2].forEach((value, i) => view.setUint16(offsetTris + i * 2, value, true))
  for (let f = 0; f < 2; f++) {
    const at = offsetFrames + f * frameSize
    ;[0.5, 0.5, 0.5, -10, -10, 0].forEach((value, i) => view.setFloat32(at + i * 4, value, true))
    bytes.set(new TextEncoder().encode(f === 0 ? 'stand01' : 'run01'), at + 24)
    bytes.set([255, 0, 0, 1, 0, 255, 0, 2, 0, 0, 255, 3], at + 40)
  }
  ;[-3, 0, 0, 0, 0.5, 0, 1, 0, 0.5, 2, 0].forEach((value, i) => {
    const at = offsetGlCmds + i * 4
    // Words 1, 2, 4, 5, 7, 8 are float s, t; the others are ints.
    if ([1, 2, 4, 5, 7, 8].includes(i)) view.setFloat32(at, value, true)
    else view.setInt32(at, value, true)
  })
  FIELDS.forEach((field, i) => view.setInt32(i * 4, header[field], true))
  return { bytes, header }
}

function withHeader(changes: Partial<Header>, options: { misaligned?: boolean } = {}): Uint8Array {
  const { bytes } = tinyModel()
  const view = new DataView(bytes.buffer)
  for (const [field, value] of Object.entries(changes)) view.setInt32(FIELDS.indexOf(field as Field) * 4, value, true)
  if (!options.misaligned) return bytes
  // The same bytes at an odd offset of a larger buffer: the parser must copy instead of viewing.
  const holder = new Uint8Array(bytes.length + 1)
  holder.set(bytes, 1)
  return holder.subarray(1)
}

const I32_MAX = 2 ** 31 - 1
const I32_MIN = -(2 ** 31)
const TINY = tinyModel().bytes.length
/** The most the parser may allocate for a refused file of a few hundred bytes. */
const REFUSAL_BUDGET_BYTES = 4096

interface Refusal {
  result: 'refused'
  error: MD2Error
  allocated: number
  largest: Allocation | undefined
  ms: number
  arrayBufferGrowth: number
}

function parseAndMeasure(bytes: Uint8Array): Refusal | { result: 'parsed'; allocated: number } {
  const arrayBuffersBefore = process.memoryUsage().arrayBuffers
  const start = performance.now()
  const { allocations, error } = recordAllocations(() => parseMD2(bytes, { name: 'liar.md2' }))
  const ms = performance.now() - start
  const arrayBufferGrowth = process.memoryUsage().arrayBuffers - arrayBuffersBefore
  const allocated = allocations.reduce((sum, a) => sum + a.bytes, 0)
  if (error === undefined) return { result: 'parsed', allocated }
  if (!(error instanceof MD2Error)) throw error
  const largest = allocations.reduce<Allocation | undefined>((max, a) => (max === undefined || a.bytes > max.bytes ? a : max), undefined)
  return { result: 'refused', error, allocated, largest, ms, arrayBufferGrowth }
}

function expectRefused(bytes: Uint8Array, code: MD2ErrorCode, section?: string): MD2Error {
  const outcome = parseAndMeasure(bytes)
  if (outcome.result !== 'refused') throw new Error(`expected ${code}, the file parsed`)
  const { error, allocated, largest, arrayBufferGrowth } = outcome
  expect(error.code, error.message).toBe(code)
  if (section !== undefined) expect(error.section).toBe(section)
  expect(error.message).toContain('liar.md2')
  expect(allocated, `allocated ${allocated} bytes (largest: ${largest?.type} of ${largest?.bytes})`).toBeLessThanOrEqual(
    REFUSAL_BUDGET_BYTES,
  )
  // Nothing close to the claimed sizes: a single claimed frame table would be gigabytes.
  expect(arrayBufferGrowth).toBeLessThan(1 << 20)
  return error
}

describe('the tiny model (control)', () => {
  it('parses: 304 bytes, 2 frames, 1 triangle, 1 GL fan', () => {
    const { bytes } = tinyModel()
    expect(bytes.length).toBe(304)
    const model = parseMD2(bytes)
    expect(model.warnings).toEqual([])
    expect(model.frames.length).toBe(2)
    expect(model.glCommands).toEqual([{ mode: 'fan', start: 1, vertexCount: 3 }])
    expect(Array.from(decodeFrame(model, 1))).toEqual([117.5, -10, 0, -10, 117.5, 0, -10, -10, 127.5])
  })

  it('the spy sees the parser allocate: a misaligned copy has its st, triangles and GL commands copied', () => {
    const outcome = parseAndMeasure(withHeader({}, { misaligned: true }))
    expect(outcome.result).toBe('parsed')
    // 3 st (12 bytes as Int16), 1 triangle (12 bytes as Uint16), 11 GL words (44 bytes as Int32), the frame list...
    expect(outcome.allocated).toBeGreaterThanOrEqual(12 + 12 + 44)
    const { allocations } = recordAllocations(() => parseMD2(withHeader({}, { misaligned: true })))
    expect(allocations.map((a) => a.type)).toEqual(expect.arrayContaining(['Int16Array', 'Uint16Array', 'Int32Array']))
  })
})

/** Header lies, each with the code it must get. Sizes are what a naive reader would allocate. */
const LIES: { name: string; changes: Partial<Header>; code: MD2ErrorCode; section?: string }[] = [
  { name: '2^31-1 frames', changes: { numFrames: I32_MAX }, code: 'TRUNCATED', section: 'frames' },
  { name: 'a billion frames', changes: { numFrames: 1e9 }, code: 'TRUNCATED', section: 'frames' },
  { name: '2^31-1 vertices (frame size too small for them)', changes: { numVertices: I32_MAX }, code: 'BAD_FRAME_SIZE' },
  { name: '2^30 vertices (40 + 4·n overflows int32)', changes: { numVertices: 2 ** 30 }, code: 'BAD_FRAME_SIZE' },
  {
    name: '500 million vertices with a frame size to match',
    changes: { numVertices: 5e8, frameSize: 40 + 4 * 5e8 },
    code: 'TRUNCATED',
    section: 'frames',
  },
  { name: '2^31-1 triangles', changes: { numTris: I32_MAX }, code: 'TRUNCATED', section: 'triangles' },
  { name: '0x15555556 triangles (×12 wraps to 8 in 32 bits)', changes: { numTris: 0x15555556 }, code: 'TRUNCATED', section: 'triangles' },
  { name: '2^31-1 texture coordinates', changes: { numST: I32_MAX }, code: 'TRUNCATED', section: 'st' },
  { name: '0x40000001 texture coordinates (×4 wraps to 4)', changes: { numST: 0x40000001 }, code: 'TRUNCATED', section: 'st' },
  { name: '2^31-1 skins', changes: { numSkins: I32_MAX }, code: 'TRUNCATED', section: 'skins' },
  { name: '0x04000001 skins (×64 wraps to 64)', changes: { numSkins: 0x04000001 }, code: 'TRUNCATED', section: 'skins' },
  { name: '2^31-1 GL command words', changes: { numGlCmds: I32_MAX }, code: 'TRUNCATED', section: 'glcmds' },
  { name: '0x40000001 GL command words (×4 wraps to 4)', changes: { numGlCmds: 0x40000001 }, code: 'TRUNCATED', section: 'glcmds' },
  { name: 'frame size 2^31-1', changes: { frameSize: I32_MAX }, code: 'TRUNCATED', section: 'frames' },
  {
    name: '65536 frames of 65536 bytes (product wraps to 0)',
    changes: { numFrames: 65536, frameSize: 65536 },
    code: 'TRUNCATED',
    section: 'frames',
  },
  {
    name: 'every count 2^31-1',
    changes: {
      numSkins: I32_MAX,
      numVertices: I32_MAX,
      numST: I32_MAX,
      numTris: I32_MAX,
      numGlCmds: I32_MAX,
      numFrames: I32_MAX,
      frameSize: I32_MAX,
    },
    code: 'BAD_FRAME_SIZE',
  },
  {
    name: 'every count 2^31-1 but the vertices',
    changes: { numSkins: I32_MAX, numST: I32_MAX, numTris: I32_MAX, numGlCmds: I32_MAX, numFrames: I32_MAX, frameSize: I32_MAX },
    code: 'TRUNCATED',
  },
  { name: '-1 frames', changes: { numFrames: -1 }, code: 'OUT_OF_RANGE' },
  { name: '-2^31 triangles', changes: { numTris: I32_MIN }, code: 'OUT_OF_RANGE' },
  { name: '-1 vertices', changes: { numVertices: -1 }, code: 'OUT_OF_RANGE' },
  { name: 'frame size -2^31', changes: { frameSize: I32_MIN }, code: 'OUT_OF_RANGE' },
  { name: 'skin width -1', changes: { skinWidth: -1 }, code: 'OUT_OF_RANGE' },
  { name: 'frames at offset 2^31-1', changes: { offsetFrames: I32_MAX }, code: 'OUT_OF_RANGE', section: 'frames' },
  { name: 'frames at offset -1', changes: { offsetFrames: -1 }, code: 'OUT_OF_RANGE' },
  { name: 'triangles inside the header (offset 0)', changes: { offsetTris: 0 }, code: 'OUT_OF_RANGE', section: 'triangles' },
  { name: 'frames starting at the last byte', changes: { offsetFrames: TINY - 1 }, code: 'TRUNCATED', section: 'frames' },
  {
    name: 'frames at 2^31-100, 2^31-1 of them',
    changes: { offsetFrames: I32_MAX - 99, numFrames: I32_MAX },
    code: 'OUT_OF_RANGE',
    section: 'frames',
  },
  { name: 'GL commands at the file length', changes: { offsetGlCmds: TINY }, code: 'OUT_OF_RANGE', section: 'glcmds' },
  { name: 'no frames', changes: { numFrames: 0 }, code: 'EMPTY' },
  { name: 'wrong magic', changes: { ident: 0x32504449 + 1 }, code: 'BAD_MAGIC' },
  { name: 'version 2^31-1', changes: { version: I32_MAX }, code: 'BAD_VERSION' },
]

describe('a few hundred bytes claiming billions: refused before allocation', () => {
  it.each(LIES)('$name → $code', ({ changes, code, section }) => {
    expectRefused(withHeader(changes), code, section)
  })

  it.each(LIES)('$name → $code, from a misaligned buffer (the copying path)', ({ changes, code, section }) => {
    expectRefused(withHeader(changes, { misaligned: true }), code, section)
  })

  it('a header alone (68 bytes) claiming everything', () => {
    const bytes = withHeader({ numFrames: I32_MAX, numTris: I32_MAX, numST: I32_MAX }).slice(0, 68)
    expectRefused(bytes, 'OUT_OF_RANGE')
  })

  it('a truncated header', () => {
    expectRefused(tinyModel().bytes.slice(0, 67), 'TRUNCATED', 'header')
  })

  it('an ofs_end, skin width or skin height of 2^31-1 is only a warning (nothing is sized by them)', () => {
    const model = parseMD2(withHeader({ offsetEnd: I32_MAX, skinWidth: I32_MAX, skinHeight: I32_MAX }))
    expect(model.warnings.join('\n')).toMatch(/ofs_end/)
    expect(model.warnings.join('\n')).toMatch(/skin height/)
  })
})

// ---------------------------------------------------------------------------------------------
// The most a 1 MB file can truthfully hold stays fast (no quadratic work on counts).

/** A model of `numFrames` frames of `numVertices` vertices, `numSkins` skins and `glWords` of GL fans. */
function bigModel({ numFrames = 1, numVertices = 3, numSkins = 0, glFans = 0, numTris = 1 }): Uint8Array {
  const numGlCmds = glFans * 10 + 1
  const header = md2Header({ skinWidth: 64, skinHeight: 64, numSkins, numVertices, numST: 3, numTris, numGlCmds, numFrames })
  const { frameSize, offsetSkins, offsetTris, offsetFrames, offsetGlCmds, offsetEnd } = header
  const bytes = new Uint8Array(offsetEnd)
  const view = new DataView(bytes.buffer)
  HEADER_FIELDS.forEach((field, i) => view.setInt32(i * 4, header[field], true))
  for (let s = 0; s < numSkins; s++) bytes.set(new TextEncoder().encode(`models/big/skin${s}.pcx`), offsetSkins + s * 64)
  for (let t = 0; t < numTris; t++)
    [0, 1, 2, 0, 1, 2].forEach((value, i) => view.setUint16(offsetTris + t * 12 + i * 2, value % numVertices, true))
  for (let f = 0; f < numFrames; f++) {
    const at = offsetFrames + f * frameSize
    view.setFloat32(at, 1, true)
    view.setFloat32(at + 4, 1, true)
    view.setFloat32(at + 8, 1, true)
    bytes.set(new TextEncoder().encode(`f${f}`), at + 24)
  }
  for (let g = 0; g < glFans; g++) {
    const at = offsetGlCmds + g * 40
    view.setInt32(at, -3, true)
    for (let v = 0; v < 3; v++) view.setInt32(at + 4 + v * 12 + 8, v % numVertices, true)
  }
  return bytes
}

// How fast they parse is the parse benchmark's business; here, that they parse whole.
describe('the most a 1 MB file can truthfully hold parses whole', () => {
  it.each([
    [
      '23,800 one-vertex frames, each its own animation name',
      { numFrames: 23_800, numVertices: 1 },
      (m: MD2ModelData) => m.frames.length,
      23_800,
    ],
    ['16,000 skin names', { numSkins: 16_000 }, (m: MD2ModelData) => m.skins.length, 16_000],
    ['26,000 GL fans (260,000 words)', { glFans: 26_000 }, (m: MD2ModelData) => m.glCommands.length, 26_000],
    ['87,000 triangles', { numTris: 87_000 }, (m: MD2ModelData) => m.triangles.length, 87_000 * 6],
  ] as const)('%s', (_, spec, count, expected) => {
    const bytes = bigModel(spec)
    expect(bytes.length).toBeLessThan(1 << 20)
    expect(count(parseMD2(bytes))).toBe(expected)
  })
})

// ---------------------------------------------------------------------------------------------
// Skins: a small image file claiming 65535 × 65535 pixels

function expectImageRefused(decode: () => unknown): void {
  const before = process.memoryUsage().arrayBuffers
  const { allocations, error } = recordAllocations(decode)
  expect(error).toBeInstanceOf(MD2Error)
  expect((error as MD2Error).code).toBe('BAD_IMAGE')
  const allocated = allocations.reduce((sum, a) => sum + a.bytes, 0)
  expect(allocated).toBeLessThanOrEqual(REFUSAL_BUDGET_BYTES)
  expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(1 << 20)
}

describe('skin images claiming 65535 × 65535 pixels: refused before allocation', () => {
  const pcx = (encoding: number, planes: number) => {
    const bytes = new Uint8Array(128 + 300 + (planes === 1 ? 769 : 0))
    const view = new DataView(bytes.buffer)
    bytes.set([0x0a, 5, encoding, 8])
    view.setUint16(8, 65534, true)
    view.setUint16(10, 65534, true)
    bytes[65] = planes
    view.setUint16(66, 65535, true)
    bytes.fill(0xff, 128, 428) // 150 runs of 63
    return bytes
  }
  // [encoding, planes]
  // prettier-ignore
  it.each([[1, 1], [1, 3], [1, 4], [0, 1], [0, 4]])('PCX, encoding %i, %i plane(s)', (encoding, planes) => {
    expectImageRefused(() => decodePCX(pcx(encoding, planes)))
  })

  const tga = (type: number, depth: number) => {
    const bytes = new Uint8Array(18 + 300)
    const view = new DataView(bytes.buffer)
    bytes[2] = type
    view.setUint16(12, 65535, true)
    view.setUint16(14, 65535, true)
    bytes[16] = depth
    bytes.fill(0xff, 18) // run packets of 128 pixels
    return bytes
  }
  // [type, bits]
  // prettier-ignore
  it.each([[2, 32], [10, 32], [3, 8], [11, 8]])('TGA, type %i, %i bits', (type, depth) => {
    expectImageRefused(() => decodeTGA(tga(type, depth)))
  })

  it('a real skin with its size fields raised to 65535 × 65535', () => {
    const bytes = readAsset('quake2/ogro/igdosh.pcx').slice()
    const view = new DataView(bytes.buffer)
    view.setUint16(4, 0, true)
    view.setUint16(6, 0, true)
    view.setUint16(8, 65534, true)
    view.setUint16(10, 65534, true)
    view.setUint16(66, 65535, true)
    expectImageRefused(() => decodePCX(bytes))
  })
})
