/**
 * Writes 8-bit paletted PCX, the skin format Quake II's renderers load (software and GL alike): RGBA is
 * mapped to the nearest colour of a palette, Quake II's by default, so that an unmodified engine shows the
 * skin as painted. The layout is the one `decodePCX` reads: a 128-byte header, run-length encoded
 * scanlines of an even byte count, a 0x0C marker and the 768-byte palette.
 */
import { MD2Error } from '../MD2Error.js'
import type { DecodedImage } from './decodedImage.js'
import { QUAKE2_PALETTE } from './quake2Palette.js'

export interface EncodePCXOptions {
  /** 256 RGB triples; default `QUAKE2_PALETTE`. */
  palette?: Uint8Array
  /**
   * The index pixels with alpha below 128 get, and that no opaque pixel is mapped to. Default 255, the
   * index Quake II draws as transparent; `null` maps every pixel by colour alone.
   */
  transparentIndex?: number | null
}

const HEADER_SIZE = 128
const PALETTE_MARKER = 0x0c
const MAX_RUN = 0x3f
const RUN_FLAG = 0xc0

/**
 * One palette index per pixel: the nearest palette colour (squared RGB distance weighted as the eye
 * weights red, green and blue), no dithering, so flat colours stay flat.
 */
export function quantizeToPalette(image: DecodedImage, options: EncodePCXOptions = {}): Uint8Array {
  const palette = options.palette ?? QUAKE2_PALETTE
  const transparent = options.transparentIndex === undefined ? 255 : options.transparentIndex
  checkImage(image, 'quantizeToPalette')
  if (palette.length !== 768) throw new MD2Error('BAD_ARGUMENT', `a palette is 768 bytes (256 RGB), got ${palette.length}`)
  if (transparent !== null && !(Number.isInteger(transparent) && transparent >= 0 && transparent <= 255))
    throw new MD2Error('BAD_ARGUMENT', `transparentIndex must be an integer from 0 to 255 or null, got ${transparent}`)
  const { data } = image
  const indices = new Uint8Array(image.width * image.height)
  // Skins repeat few colours: each is searched once.
  const found = new Map<number, number>()
  for (let i = 0; i < indices.length; i++) {
    const r = data[i * 4]!
    const g = data[i * 4 + 1]!
    const b = data[i * 4 + 2]!
    if (transparent !== null && data[i * 4 + 3]! < 128) {
      indices[i] = transparent
      continue
    }
    const key = (r << 16) | (g << 8) | b
    let index = found.get(key)
    if (index === undefined) {
      index = nearest(palette, r, g, b, transparent)
      found.set(key, index)
    }
    indices[i] = index
  }
  return indices
}

function nearest(palette: Uint8Array, r: number, g: number, b: number, skip: number | null): number {
  let best = 0
  let bestDistance = Infinity
  for (let p = 0; p < 256; p++) {
    if (p === skip) continue
    const dr = palette[p * 3]! - r
    const dg = palette[p * 3 + 1]! - g
    const db = palette[p * 3 + 2]! - b
    const distance = 3 * dr * dr + 4 * dg * dg + 2 * db * db
    if (distance < bestDistance) {
      bestDistance = distance
      best = p
    }
  }
  return best
}

function checkImage({ width, height, data }: DecodedImage, what: string): void {
  if (!(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0 && width <= 65535 && height <= 65535))
    throw new MD2Error('BAD_ARGUMENT', `${what}: ${width} × ${height} is not an image size from 1 to 65,535`)
  if (data.length !== width * height * 4)
    throw new MD2Error('BAD_ARGUMENT', `${what}: ${width} × ${height} RGBA needs ${width * height * 4} bytes, got ${data.length}`)
}

/** An RGBA image (first row at the top) as an 8-bit PCX in `options.palette` (Quake II's by default). */
export function encodePCX(image: DecodedImage, options: EncodePCXOptions = {}): Uint8Array {
  checkImage(image, 'encodePCX')
  const indices = quantizeToPalette(image, options)
  const palette = options.palette ?? QUAKE2_PALETTE
  const { width, height } = image
  const bytesPerLine = width + (width & 1)
  // Worst case: every byte needs a run packet of its own.
  const out = new Uint8Array(HEADER_SIZE + height * bytesPerLine * 2 + 1 + 768)
  const view = new DataView(out.buffer)
  out[0] = 0x0a // manufacturer
  out[1] = 5 // version 3.0 and later: a 256-colour palette at the end
  out[2] = 1 // run-length encoded
  out[3] = 8 // bits per pixel per plane
  view.setUint16(8, width - 1, true)
  view.setUint16(10, height - 1, true)
  view.setUint16(12, 72, true)
  view.setUint16(14, 72, true)
  out[65] = 1 // planes
  view.setUint16(66, bytesPerLine, true)
  view.setUint16(68, 1, true) // palette info: colour
  let at = HEADER_SIZE
  const line = new Uint8Array(bytesPerLine)
  for (let y = 0; y < height; y++) {
    line.set(indices.subarray(y * width, (y + 1) * width))
    // Runs stop at the end of each scanline, as the format asks.
    for (let x = 0; x < bytesPerLine;) {
      const value = line[x]!
      let run = 1
      while (x + run < bytesPerLine && run < MAX_RUN && line[x + run] === value) run++
      if (run > 1 || value >= RUN_FLAG) out[at++] = RUN_FLAG | run
      out[at++] = value
      x += run
    }
  }
  out[at++] = PALETTE_MARKER
  out.set(palette, at)
  return out.slice(0, at + 768)
}
