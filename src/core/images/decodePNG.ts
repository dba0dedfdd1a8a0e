import { decode } from 'fast-png'
import { Unzlib } from 'fflate'
import { MD2Error } from '../MD2Error.js'
import { checkImageSize, failImage, toImageBytes, type DecodedImage, type ImageDecodeOptions } from './decodedImage.js'

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

/**
 * A PNG as RGBA, 8 bits per channel, first row at the top: every kind `fast-png` reads (paletted at 1, 2, 4
 * or 8 bits, grey at 1 to 16 bits, grey with alpha, RGB and RGBA at 8 or 16 bits, `tRNS` transparency).
 * The size is checked from the IHDR chunk against `maxPixels` before anything is decoded; a damaged file is
 * a `BAD_IMAGE` `MD2Error`.
 */
export function decodePNG(bytes: Uint8Array | ArrayBuffer, options: ImageDecodeOptions = {}): DecodedImage {
  const data = toImageBytes(bytes, options.name)
  if (data.length < 33 || SIGNATURE.some((value, i) => data[i] !== value))
    failImage('png', 'header', 0, 'not a PNG image (no PNG signature and IHDR)', options.name)
  const header = new DataView(data.buffer, data.byteOffset, 33)
  const width = header.getUint32(16)
  const height = header.getUint32(20)
  if (width === 0 || height === 0) failImage('png', 'header', 16, `${width} × ${height} pixels`, options.name)
  checkImageSize('png', width, height, options, 16)
  checkInflatedSize(data, width, height, options.name)
  let png: ReturnType<typeof decode>
  try {
    png = decode(data)
  } catch (error) {
    failImage('png', 'data', undefined, error instanceof Error ? error.message : String(error), options.name)
  }
  return toRGBA(png, options.name)
}

/** Components per pixel of each PNG colour type. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }

/**
 * Inflates the IDAT stream once, counting, before the decoder inflates it into memory: a few megabytes of
 * deflate can hold gigabytes, more than the size the header declares needs. Refused past that size.
 */
function checkInflatedSize(data: Uint8Array, width: number, height: number, name: string | undefined): void {
  const depth = data[24]!
  const channels = CHANNELS[data[25]!] ?? 4
  const interlaced = data[28] === 1
  // Each row: a filter byte and its packed samples; Adam7's seven passes add at most a row start each per pass.
  const limit = height * (1 + Math.ceil((width * channels * Math.max(depth, 1)) / 8)) + (interlaced ? 7 * (height + 8) : 0)
  let inflated = 0
  const stream = new Unzlib({}, (chunk) => {
    inflated += chunk.length
    if (inflated > limit)
      failImage(
        'png',
        'data',
        undefined,
        `the image data inflates past the ${limit} bytes ${width} × ${height} needs (a deflate bomb)`,
        name,
      )
  })
  try {
    for (let at = 8; at + 12 <= data.length;) {
      const length = ((data[at]! << 24) | (data[at + 1]! << 16) | (data[at + 2]! << 8) | data[at + 3]!) >>> 0
      const type = String.fromCharCode(data[at + 4]!, data[at + 5]!, data[at + 6]!, data[at + 7]!)
      // In small pieces: deflate grows a byte into at most 1,032, so each piece inflates to about a megabyte.
      const end = Math.min(data.length, at + 8 + length)
      if (type === 'IDAT')
        for (let piece = at + 8; piece < end; piece += 1024) stream.push(data.subarray(piece, Math.min(end, piece + 1024)))
      if (type === 'IEND') break
      at += 12 + length
    }
  } catch (error) {
    if (error instanceof MD2Error) throw error
    // A damaged stream: the decoder says what is wrong with it.
  }
}

function toRGBA(png: ReturnType<typeof decode>, name: string | undefined): DecodedImage {
  const { width, height, depth, channels, palette, transparency } = png
  const source = png.data
  const rgba = new Uint8Array(width * height * 4)
  // Samples below 8 bits are packed in bytes, each row starting on a byte; 16-bit samples come as Uint16Array.
  const rowSamples = width * channels
  const rowBytes = Math.ceil((rowSamples * depth) / 8)
  const needed = depth < 8 ? rowBytes * height : rowSamples * height
  if (source.length < needed) failImage('png', 'data', undefined, `${source.length} samples decoded, ${needed} needed`, name)
  const max = (1 << depth) - 1
  const sample = (row: number, index: number): number => {
    if (depth >= 8) return source[row * rowSamples + index]!
    const bit = index * depth
    const byte = source[row * rowBytes + (bit >> 3)]!
    return (byte >> (8 - depth - (bit & 7))) & max
  }
  const to8 = depth === 16 ? (v: number) => v >> 8 : depth === 8 ? (v: number) => v : (v: number) => Math.round((v * 255) / max)
  const key = !palette && transparency && transparency.length > 0 ? transparency : undefined
  for (let y = 0, o = 0; y < height; y++) {
    for (let x = 0; x < width; x++, o += 4) {
      const s = x * channels
      if (palette) {
        const colour = palette[sample(y, s)]
        if (!colour) failImage('png', 'data', undefined, `palette index ${sample(y, s)} past its ${palette.length} colours`, name)
        rgba[o] = colour[0]!
        rgba[o + 1] = colour[1]!
        rgba[o + 2] = colour[2]!
        rgba[o + 3] = colour[3] ?? 255
        continue
      }
      const grey = channels < 3
      const r = sample(y, s)
      const g = grey ? r : sample(y, s + 1)
      const b = grey ? r : sample(y, s + 2)
      const alpha = channels === 4 ? sample(y, s + 3) : channels === 2 ? sample(y, s + 1) : max
      rgba[o] = to8(r)
      rgba[o + 1] = to8(g)
      rgba[o + 2] = to8(b)
      // tRNS without a palette names one colour (in the file's own sample depth) as fully transparent.
      const keyed = key && (grey ? key[0] === r : key[0] === r && key[1] === g && key[2] === b)
      rgba[o + 3] = keyed ? 0 : to8(alpha)
    }
  }
  return { width, height, data: rgba }
}
