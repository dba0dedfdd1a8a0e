/**
 * Writes 8-bit paletted PCX, the skin format Quake II's renderers load (software and GL alike): RGBA is
 * mapped to the nearest colour of a palette, Quake II's by default, so that an unmodified engine shows the
 * skin as painted. The layout is the one `decodePCX` reads: a 128-byte header, run-length encoded
 * scanlines exactly as wide as the image (Quake II's LoadPCX reads no padding), a 0x0C marker and the
 * 768-byte palette.
 */
import { MD2Error } from '../MD2Error.js'
import type { DecodedImage } from './decodedImage.js'
import { QUAKE2_PALETTE } from './quake2Palette.js'
import { SRGB_TO_LINEAR, linearToSrgb8 } from './colorLab.js'
import { type PaletteMatcher, paletteMatcher } from './paletteMatch.js'

export interface EncodePCXOptions {
  /** 256 RGB triples; default `QUAKE2_PALETTE`. */
  palette?: Uint8Array
  /**
   * The index pixels with alpha below 128 get, and that no opaque pixel is mapped to. Default 255, the
   * index Quake II draws as transparent; `null` maps every pixel by colour alone.
   */
  transparentIndex?: number | null
  /**
   * Floyd–Steinberg error diffusion (in linear light), for gradients and soft shading that the palette has
   * too few colours for. Default false: each colour gets its nearest entry, so flat colours stay flat.
   */
  dither?: boolean
}

const HEADER_SIZE = 128
const PALETTE_MARKER = 0x0c
const MAX_RUN = 0x3f
const RUN_FLAG = 0xc0

/**
 * One palette index per pixel: the palette colour nearest as the eye sees it (CIEDE2000 in CIELAB, see
 * `paletteMatcher`), never `transparentIndex`. Without `dither` each colour always gets the same index, so
 * flat colours stay flat; with it, Floyd–Steinberg error diffusion (see `ditherToPalette`).
 */
export function quantizeToPalette(image: DecodedImage, options: EncodePCXOptions = {}): Uint8Array {
  const palette = options.palette ?? QUAKE2_PALETTE
  const transparent = options.transparentIndex === undefined ? 255 : options.transparentIndex
  const dither = options.dither === undefined ? false : options.dither
  checkImage(image, 'quantizeToPalette')
  if (!(palette instanceof Uint8Array) || palette.length !== 768)
    throw new MD2Error('BAD_ARGUMENT', `a palette is 768 bytes (256 RGB), got ${(palette as { length?: unknown }).length}`)
  if (transparent !== null && !(Number.isInteger(transparent) && transparent >= 0 && transparent <= 255))
    throw new MD2Error('BAD_ARGUMENT', `transparentIndex must be an integer from 0 to 255 or null, got ${transparent}`)
  if (typeof dither !== 'boolean') throw new MD2Error('BAD_ARGUMENT', `dither must be true or false, got ${String(dither)}`)
  const matcher = paletteMatcher(palette, transparent)
  // Each colour is searched once. Skins repeat few colours (a map); a large image may hold millions (a photo,
  // noise), past what a Map holds well: a table of every 24-bit colour (16 MiB and a 2 MiB bit set) then.
  const lookup = image.width * image.height >= DENSE_CACHE_PIXELS ? denseLookup(matcher) : sparseLookup(matcher)
  if (dither) return ditherToPalette(image, palette, transparent, lookup)
  const { data } = image
  const indices = new Uint8Array(image.width * image.height)
  for (let i = 0; i < indices.length; i++) {
    if (transparent !== null && data[i * 4 + 3]! < 128) indices[i] = transparent
    else indices[i] = lookup(data[i * 4]!, data[i * 4 + 1]!, data[i * 4 + 2]!)
  }
  return indices
}

/**
 * Floyd–Steinberg error diffusion, serpentine (rows alternate direction, so the error does not drift one
 * way). The error is kept in linear light, not sRGB or Lab: a dither is meant to average, over a few texels,
 * to the source colour, and what the eye, texture filtering and mipmaps average is light; Lab is not
 * additive, so the mean of Lab values is not the Lab of the mean colour. Pixels with alpha below 128 (when
 * there is a `transparentIndex`) neither receive nor pass error: what fell on them is dropped.
 */
function ditherToPalette(
  { width, height, data }: DecodedImage,
  palette: Uint8Array,
  transparent: number | null,
  lookup: (r: number, g: number, b: number) => number,
): Uint8Array {
  const indices = new Uint8Array(width * height)
  let here = new Float32Array(width * 3)
  let below = new Float32Array(width * 3)
  for (let y = 0; y < height; y++) {
    const forward = (y & 1) === 0
    const step = forward ? 1 : -1
    for (let n = 0; n < width; n++) {
      const x = forward ? n : width - 1 - n
      const i = y * width + x
      if (transparent !== null && data[i * 4 + 3]! < 128) {
        indices[i] = transparent
        continue
      }
      const e = x * 3
      const r = clamp01(SRGB_TO_LINEAR[data[i * 4]!]! + here[e]!)
      const g = clamp01(SRGB_TO_LINEAR[data[i * 4 + 1]!]! + here[e + 1]!)
      const b = clamp01(SRGB_TO_LINEAR[data[i * 4 + 2]!]! + here[e + 2]!)
      const index = lookup(linearToSrgb8(r), linearToSrgb8(g), linearToSrgb8(b))
      indices[i] = index
      const ahead = x + step
      const behind = x - step
      const er = r - SRGB_TO_LINEAR[palette[index * 3]!]!
      const eg = g - SRGB_TO_LINEAR[palette[index * 3 + 1]!]!
      const eb = b - SRGB_TO_LINEAR[palette[index * 3 + 2]!]!
      const size = Math.sqrt(er * er + eg * eg + eb * eb)
      const scale = size > MAX_ERROR ? MAX_ERROR / size : 1
      for (let c = 0; c < 3; c++) {
        const err = (c === 0 ? er : c === 1 ? eg : eb) * scale
        if (ahead >= 0 && ahead < width) {
          here[ahead * 3 + c]! += (err * 7) / 16
          below[ahead * 3 + c]! += err / 16
        }
        if (behind >= 0 && behind < width) below[behind * 3 + c]! += (err * 3) / 16
        below[e + c]! += (err * 5) / 16
      }
    }
    ;[here, below] = [below, here]
    below.fill(0)
  }
  return indices
}

/**
 * The longest error (linear RGB) passed on. A longer one is a colour outside what the palette's colours mix
 * to (a saturated blue in Quake II's): passed on whole it only makes the neighbours overshoot, and an
 * out-of-gamut gradient came out worse than not dithered (8 × 8 block means 9.2 ΔE00 off, against 7.9
 * undithered and 6.3 capped; a skin-tone gradient 0.6 either way).
 */
const MAX_ERROR = 0.4

function clamp01(value: number): number {
  return value <= 0 ? 0 : value >= 1 ? 1 : value
}

/** Images of this many pixels or more cache nearest entries in a table of every colour rather than a Map. */
const DENSE_CACHE_PIXELS = 1 << 20

type Lookup = (r: number, g: number, b: number) => number

function sparseLookup(matcher: PaletteMatcher): Lookup {
  const found = new Map<number, number>()
  return (r, g, b) => {
    const key = (r << 16) | (g << 8) | b
    let index = found.get(key)
    if (index === undefined) {
      index = matcher.nearest(r, g, b)
      found.set(key, index)
    }
    return index
  }
}

function denseLookup(matcher: PaletteMatcher): Lookup {
  const index = new Uint8Array(1 << 24)
  const known = new Uint8Array(1 << 21)
  return (r, g, b) => {
    const key = (r << 16) | (g << 8) | b
    if (known[key >> 3]! & (1 << (key & 7))) return index[key]!
    const found = matcher.nearest(r, g, b)
    index[key] = found
    known[key >> 3]! |= 1 << (key & 7)
    return found
  }
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
  // Rows exactly as wide as the image, odd or not: Quake II's LoadPCX ignores bytes_per_line and reads width bytes a row.
  const bytesPerLine = width
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
