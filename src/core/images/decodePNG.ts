import { decode } from 'fast-png'
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
  let png: ReturnType<typeof decode>
  try {
    png = decode(data)
  } catch (error) {
    failImage('png', 'data', undefined, error instanceof Error ? error.message : String(error), options.name)
  }
  return toRGBA(png, options.name)
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
