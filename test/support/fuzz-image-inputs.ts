import fc from 'fast-check'
import { listAssets, readAsset } from './assets'
import { applyOps, byteValue, checkImage, mulberry32, type Op } from './fuzz-checks'
import { encodeRLE, makePCX } from './pcx'

// ---------------------------------------------------------------------------------------------
// Skins: PCX (real files and synthetic true-colour ones) and TGA (synthetic, every supported type)

interface ImageSeed {
  kind: 'pcx' | 'tga'
  name: string
  bytes: Uint8Array
}

const ALL_PCX = listAssets('pcx')
export const PCX_SEEDS: ImageSeed[] = [
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

export const TGA_SEEDS: ImageSeed[] = TGA_SPECS.map((spec, i) => ({
  kind: 'tga',
  name: `synthetic tga ${JSON.stringify(spec)}`,
  bytes: makeTGA(spec, i + 1),
}))

interface ImageCase {
  kind: 'pcx' | 'tga'
  name: string
  ops: Op[]
}

export function imageCases(seeds: ImageSeed[], headerSize: number): fc.Arbitrary<ImageCase> {
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

export const imageSeeds = new Map([...PCX_SEEDS, ...TGA_SEEDS].map((seed) => [seed.name, seed]))
export function checkImageCase({ kind, name, ops }: ImageCase): void {
  const base = imageSeeds.get(name)?.bytes ?? readAsset(name)
  checkImage(kind, applyOps(base, ops), `${name} + ${JSON.stringify(ops)}`)
}
export const imageRecipe = (value: ImageCase) => ({ kind: value.kind, base: value.name, ops: value.ops })
