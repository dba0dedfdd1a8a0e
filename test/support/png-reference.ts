/**
 * A minimal PNG reader for tests, independent of the library: a second opinion to compare decoded
 * skins against. Handles non-interlaced 8-bit images of colour types 0 (grey), 2 (RGB),
 * 3 (palette), 4 (grey + alpha) and 6 (RGBA), all five row filters, and tRNS transparency;
 * throws on anything else. Chunk CRCs are checked so a damaged reference cannot pass silently.
 */
import { crc32, inflateSync } from 'node:zlib'

export interface ReferenceImage {
  width: number
  height: number
  colorType: number
  /** Whether the file says anything about alpha (an alpha channel or a tRNS chunk). */
  hasAlpha: boolean
  /** RGBA, first row at the top. */
  data: Uint8Array
  /** Colour type 3 only: the palette index of every pixel. */
  indices?: Uint8Array
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }

interface Chunks {
  header: DataView
  palette?: Uint8Array
  transparency?: Uint8Array
  compressed: Uint8Array
}

export function readPNG(bytes: Uint8Array): ReferenceImage {
  const { header, palette, transparency, compressed } = readChunks(bytes)
  const width = header.getUint32(0)
  const height = header.getUint32(4)
  const bitDepth = header.getUint8(8)
  const colorType = header.getUint8(9)
  const interlace = header.getUint8(12)
  const channels = CHANNELS[colorType]
  if (channels === undefined) throw new Error(`png: colour type ${colorType} is unknown`)
  if (bitDepth !== 8) throw new Error(`png: bit depth ${bitDepth} is not supported (8 only)`)
  if (interlace !== 0) throw new Error('png: interlaced images are not supported')
  if (colorType === 3 && palette === undefined) throw new Error('png: palette image without PLTE')
  const samples = unfilter(inflateSync(compressed), width, height, channels)
  const hasAlpha = colorType === 4 || colorType === 6 || transparency !== undefined
  const data = toRGBA(samples, colorType, palette, transparency)
  return colorType === 3 ? { width, height, colorType, hasAlpha, data, indices: samples } : { width, height, colorType, hasAlpha, data }
}

function readChunks(bytes: Uint8Array): Chunks {
  if (!SIGNATURE.every((value, i) => bytes[i] === value)) throw new Error('png: bad signature')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const idat: Uint8Array[] = []
  let header: DataView | undefined
  let palette: Uint8Array | undefined
  let transparency: Uint8Array | undefined
  for (let at = 8; at < bytes.length;) {
    const length = view.getUint32(at)
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8))
    const body = bytes.subarray(at + 8, at + 8 + length)
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== view.getUint32(at + 8 + length)) {
      throw new Error(`png: bad CRC on ${type} chunk at ${at}`)
    }
    if (type === 'IHDR') header = new DataView(body.buffer, body.byteOffset, body.byteLength)
    else if (type === 'PLTE') palette = body
    else if (type === 'tRNS') transparency = body
    else if (type === 'IDAT') idat.push(body)
    else if (type === 'IEND') break
    at += 12 + length
  }
  if (header === undefined) throw new Error('png: no IHDR')
  return { header, palette, transparency, compressed: Buffer.concat(idat) }
}

/** Undoes the per-row filters (None, Sub, Up, Average, Paeth) and returns the raw samples. */
function unfilter(filtered: Uint8Array, width: number, height: number, channels: number): Uint8Array {
  const stride = width * channels
  if (filtered.length < height * (stride + 1)) throw new Error('png: image data is cut short')
  const out = new Uint8Array(height * stride)
  for (let y = 0; y < height; y++) {
    const filter = filtered[y * (stride + 1)]!
    const source = y * (stride + 1) + 1
    const row = y * stride
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? out[row + x - channels]! : 0
      const up = y > 0 ? out[row - stride + x]! : 0
      const upLeft = x >= channels && y > 0 ? out[row - stride + x - channels]! : 0
      out[row + x] = (filtered[source + x]! + predict(filter, left, up, upLeft)) & 0xff
    }
  }
  return out
}

function predict(filter: number, left: number, up: number, upLeft: number): number {
  switch (filter) {
    case 0:
      return 0
    case 1:
      return left
    case 2:
      return up
    case 3:
      return (left + up) >> 1
    case 4:
      return paeth(left, up, upLeft)
    default:
      throw new Error(`png: unknown filter type ${filter}`)
  }
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c
  const pa = Math.abs(p - a)
  const pb = Math.abs(p - b)
  const pc = Math.abs(p - c)
  if (pa <= pb && pa <= pc) return a
  return pb <= pc ? b : c
}

function toRGBA(samples: Uint8Array, colorType: number, palette?: Uint8Array, transparency?: Uint8Array): Uint8Array {
  const channels = CHANNELS[colorType]!
  const count = samples.length / channels
  const rgba = new Uint8Array(count * 4)
  for (let i = 0; i < count; i++) {
    const s = i * channels
    let r: number, g: number, b: number, a: number
    if (colorType === 3) {
      const index = samples[s]!
      if (index * 3 + 2 >= palette!.length) throw new Error(`png: index ${index} outside the palette`)
      ;[r, g, b] = [palette![index * 3]!, palette![index * 3 + 1]!, palette![index * 3 + 2]!]
      a = transparency !== undefined && index < transparency.length ? transparency[index]! : 255
    } else if (colorType === 0 || colorType === 4) {
      r = g = b = samples[s]!
      a = colorType === 4 ? samples[s + 1]! : transparentKey(transparency, [r]) ? 0 : 255
    } else {
      ;[r, g, b] = [samples[s]!, samples[s + 1]!, samples[s + 2]!]
      a = colorType === 6 ? samples[s + 3]! : transparentKey(transparency, [r, g, b]) ? 0 : 255
    }
    rgba.set([r, g, b, a], i * 4)
  }
  return rgba
}

/** tRNS for grey and RGB images: one 16-bit sample per channel naming the transparent colour. */
function transparentKey(transparency: Uint8Array | undefined, sample: number[]): boolean {
  if (transparency === undefined) return false
  return sample.every((value, i) => ((transparency[i * 2]! << 8) | transparency[i * 2 + 1]!) === value)
}
