import fc from 'fast-check'
import { ALL_MD2, readAsset } from './assets'
import { applyOps, byteValue, checkMD2, mulberry32, type Op } from './fuzz-checks'

/** Damaged MD2 files for the fuzz tests: mutations of the real files, aimed at where their structure lives, and small synthetic files. */
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

export const MD2_FILES = ALL_MD2.map(describeMD2)
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

export function positionIn(ranges: [number, number][]): fc.Arbitrary<number> {
  return fc.constantFrom(...ranges).chain(([start, end]) => fc.integer({ min: start, max: Math.max(start, end - 1) }))
}

export function byteOps(positions: fc.Arbitrary<number>, maxLength: number): fc.Arbitrary<Op[]> {
  return fc.array(fc.record({ op: fc.constant('byte' as const), at: positions, value: byteValue }), { minLength: 1, maxLength })
}

/** A header field (2..16) set to an extreme value. */
export function fieldOp(info: MD2Info, fields: fc.Arbitrary<number> = fc.integer({ min: 2, max: 16 })): fc.Arbitrary<Op> {
  return fc.record({ op: fc.constant('int32' as const), at: fields.map((field) => field * 4), value: int32For(info) })
}

export function structureOps(info: MD2Info): fc.Arbitrary<Op[]> {
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
export function onMD2(ops: (info: MD2Info) => fc.Arbitrary<Op[]>): fc.Arbitrary<{ file: string; ops: Op[] }> {
  return fc.constantFrom(...MD2_FILES).chain((info) => ops(info).map((list) => ({ file: info.path, ops: list })))
}

const md2Info = new Map(MD2_FILES.map((info) => [info.path, info]))

export function checkMD2Case({ file, ops }: { file: string; ops: Op[] }): void {
  const base = md2Info.get(file)?.bytes ?? readAsset(file)
  checkMD2(applyOps(base, ops), `${file} + ${JSON.stringify(ops)}`)
}

export const md2Recipe = (value: { file: string; ops: Op[] }) => ({ kind: 'md2', base: value.file, ops: value.ops })

/**
 * Small files built from scratch: random counts, sections laid out in a random order, random section
 * bytes with indices mostly in range (so that parsing goes deep: frames, GL commands, animations), and
 * a few header fields damaged on top.
 */
export function syntheticMD2(): fc.Arbitrary<{ bytes: Uint8Array; what: string }> {
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
