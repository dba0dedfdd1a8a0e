/**
 * ZSoft PCX decoder for Quake II skins: 8-bit paletted (the skins), 24-bit (3 planes) and 32-bit
 * (4 planes, RGBA) images, run-length encoded or raw.
 *
 * Layout: a 128-byte header, then the scanlines, then (8-bit only) a 0x0C marker byte and a 768-byte
 * RGB palette at the very end of the file. Each scanline holds `planes` planes of `bytesPerLine`
 * bytes; `bytesPerLine` may exceed the width, and the padding bytes are dropped.
 */
import { MD2Error } from '../MD2Error.js'
import {
  type DecodedImage,
  type ImageDecodeOptions,
  type HeaderLayout,
  failImage,
  hexByte,
  readImageHeader,
  readUint16LE,
  toImageBytes,
} from './decodedImage.js'

export interface PCXOptions extends ImageDecodeOptions {
  /**
   * Palette index made fully transparent (alpha 0; its RGB keeps the palette colour). Quake II's
   * palette uses 255. Default: none, every pixel is opaque. Ignored for 24- and 32-bit images.
   */
  transparentIndex?: number
}

/** An 8-bit PCX before its palette is applied: what Quake II's palette tricks need. */
export interface PCXIndexedImage {
  width: number
  height: number
  /** One palette index per pixel, `width × height`, first row at the top. */
  indices: Uint8Array
  /** 256 RGB triples, 768 bytes. */
  palette: Uint8Array
}

interface PCXHeader {
  /** 1 = run-length encoded, 0 = raw. */
  encoding: number
  width: number
  height: number
  /** 1 (paletted), 3 (RGB) or 4 (RGBA); every supported layout has 8 bits per pixel per plane. */
  planes: number
  bytesPerLine: number
}

const HEADER_SIZE = 128
const PALETTE_SIZE = 768
const MANUFACTURER = 0x0a
/** A run packet is a count byte (top two bits set, up to 63) and a value byte. */
const RUN_FLAG = 0xc0
const MAX_RUN = 0x3f

/** Decodes a PCX skin to RGBA. Throws `MD2Error` `BAD_IMAGE` when the file is damaged or unsupported. */
export function decodePCX(bytes: Uint8Array | ArrayBuffer, options: PCXOptions = {}): DecodedImage {
  const file = options.name
  const data = toImageBytes(bytes, file)
  const transparentIndex = checkTransparentIndex(options.transparentIndex, file)
  const header = readImageHeader(data, HEADER, options)
  if (header.planes === 1) {
    const { width, height, indices, palette } = decodeIndexed(data, header, file)
    return { width, height, data: applyPalette(indices, palette, transparentIndex) }
  }
  const scanlines = decodeScanlines(data, header, data.length, file)
  return { width: header.width, height: header.height, data: interleavePlanes(scanlines, header) }
}

/** Decodes an 8-bit paletted PCX to palette indices and its palette, without applying it. */
export function decodePCXIndexed(bytes: Uint8Array | ArrayBuffer, options: ImageDecodeOptions = {}): PCXIndexedImage {
  const file = options.name
  const data = toImageBytes(bytes, file)
  const header = readImageHeader(data, HEADER, options)
  if (header.planes !== 1) {
    failImage('pcx', 'header', 65, `${header.planes} planes is a true-colour image, it has no palette indices`, file)
  }
  return decodeIndexed(data, header, file)
}

function checkTransparentIndex(index: number | undefined, file: string | undefined): number {
  if (index === undefined) return -1
  if (Number.isInteger(index) && index >= 0 && index <= 255) return index
  throw new MD2Error('BAD_ARGUMENT', `transparentIndex must be an integer from 0 to 255, got ${index}`, { file })
}

function readHeader(data: Uint8Array, file: string | undefined): PCXHeader {
  const manufacturer = data[0]!
  const version = data[1]!
  const encoding = data[2]!
  const bitsPerPixel = data[3]!
  const xmin = readUint16LE(data, 4)
  const ymin = readUint16LE(data, 6)
  const xmax = readUint16LE(data, 8)
  const ymax = readUint16LE(data, 10)
  const planes = data[65]!
  const bytesPerLine = readUint16LE(data, 66)
  if (manufacturer !== MANUFACTURER) {
    failImage('pcx', 'header', 0, `manufacturer byte is ${hexByte(manufacturer)}, a PCX starts with 0x0a`, file)
  }
  if (version > 5) failImage('pcx', 'header', 1, `version ${version} is unknown (0 to 5)`, file)
  if (encoding > 1) failImage('pcx', 'header', 2, `encoding ${encoding} is unknown (0 raw, 1 RLE)`, file)
  if (bitsPerPixel !== 8 || (planes !== 1 && planes !== 3 && planes !== 4)) {
    const layout = `${bitsPerPixel} bits per pixel × ${planes} planes`
    failImage('pcx', 'header', 3, `${layout} is not supported (8 × 1 paletted, 8 × 3 RGB, 8 × 4 RGBA are)`, file)
  }
  if (xmax < xmin) failImage('pcx', 'header', 8, `xmax ${xmax} is less than xmin ${xmin}`, file)
  if (ymax < ymin) failImage('pcx', 'header', 10, `ymax ${ymax} is less than ymin ${ymin}`, file)
  const width = xmax - xmin + 1
  const height = ymax - ymin + 1
  if (bytesPerLine < width) {
    failImage('pcx', 'header', 66, `${bytesPerLine} bytes per line cannot hold a row of ${width} pixels`, file)
  }
  return { encoding, width, height, planes, bytesPerLine }
}

/** The header, the image size read from xmin, ymin, xmax, ymax (bytes 4 to 11). */
const HEADER: HeaderLayout<PCXHeader> = { format: 'pcx', size: HEADER_SIZE, sizeOffset: 8, read: readHeader }

function decodeIndexed(data: Uint8Array, header: PCXHeader, file: string | undefined): PCXIndexedImage {
  // The palette is always the last 768 bytes. The 0x0C marker byte that should precede it is not
  // required: ogro's g_grenade, g_hyper and g_shotgun skins omit it and put the palette right after
  // the pixel data. Pixel data may therefore run up to the palette but not into it. The price: a
  // marked file that lost exactly its last byte still fits, and decodes with a shifted palette.
  const paletteStart = data.length - PALETTE_SIZE
  if (paletteStart < HEADER_SIZE) {
    const message = `file is ${data.length} bytes, too short for the header, pixels and a 768-byte palette`
    failImage('pcx', 'palette', HEADER_SIZE, message, file)
  }
  const scanlines = decodeScanlines(data, header, paletteStart, file)
  return {
    width: header.width,
    height: header.height,
    indices: dropRowPadding(scanlines, header),
    palette: data.slice(paletteStart),
  }
}

/**
 * Decodes the whole scanline stream, `bytesPerLine × planes × height` bytes, from data[128..end).
 * The stream is decoded continuously because encoders let runs cross row ends.
 */
function decodeScanlines(data: Uint8Array, header: PCXHeader, end: number, file: string | undefined): Uint8Array {
  const streamLength = header.bytesPerLine * header.planes * header.height
  const available = end - HEADER_SIZE
  // Refuse before allocating: a 2-byte run yields at most 63 bytes, a raw file exactly its length.
  const mostDecodable = header.encoding === 1 ? Math.floor(available / 2) * MAX_RUN + (available % 2) : available
  if (streamLength > mostDecodable) {
    const size = `${header.width}×${header.height}×${header.planes}`
    failImage('pcx', 'header', 8, `a ${size} image cannot come from ${available} bytes of pixel data`, file)
  }
  if (header.encoding === 0) {
    // A copy, so that indices returned by decodePCXIndexed never alias the caller's bytes.
    return data.slice(HEADER_SIZE, HEADER_SIZE + streamLength)
  }
  return expandRuns(data, end, streamLength, file)
}

function expandRuns(data: Uint8Array, end: number, streamLength: number, file: string | undefined): Uint8Array {
  const scanlines = new Uint8Array(streamLength)
  let read = HEADER_SIZE
  let written = 0
  while (written < streamLength) {
    if (read >= end) {
      failImage('pcx', 'rle', read, `pixel data ends after ${written} of ${streamLength} bytes`, file)
    }
    const byte = data[read++]!
    if (byte < RUN_FLAG) {
      scanlines[written++] = byte
      continue
    }
    if (read >= end) failImage('pcx', 'rle', read - 1, 'run count byte has no value byte after it', file)
    // A run that overshoots the last scanline is clipped: the surplus has nowhere to go, and
    // refusing it would lose an otherwise complete image.
    const runEnd = Math.min(written + (byte & MAX_RUN), streamLength)
    scanlines.fill(data[read++]!, written, runEnd)
    written = runEnd
  }
  return scanlines
}

/** Paletted scanlines to `width × height` indices (drops the bytes past the width in each row). */
function dropRowPadding(scanlines: Uint8Array, header: PCXHeader): Uint8Array {
  const { width, height, bytesPerLine } = header
  if (bytesPerLine === width) return scanlines
  const indices = new Uint8Array(width * height)
  for (let y = 0; y < height; y++) {
    indices.set(scanlines.subarray(y * bytesPerLine, y * bytesPerLine + width), y * width)
  }
  return indices
}

function applyPalette(indices: Uint8Array, palette: Uint8Array, transparentIndex: number): Uint8Array {
  const rgba = new Uint8Array(indices.length * 4)
  for (let i = 0, o = 0; i < indices.length; i++, o += 4) {
    const index = indices[i]!
    const p = index * 3
    rgba[o] = palette[p]!
    rgba[o + 1] = palette[p + 1]!
    rgba[o + 2] = palette[p + 2]!
    rgba[o + 3] = index === transparentIndex ? 0 : 255
  }
  return rgba
}

/** RGB(A) scanlines hold each row as planes one after the other: all reds, all greens, all blues. */
function interleavePlanes(scanlines: Uint8Array, header: PCXHeader): Uint8Array {
  const { width, height, planes, bytesPerLine } = header
  const rgba = new Uint8Array(width * height * 4)
  if (planes === 3) rgba.fill(255)
  for (let y = 0; y < height; y++) {
    const rowStart = y * bytesPerLine * planes
    const outRow = y * width * 4
    for (let plane = 0; plane < planes; plane++) {
      const planeStart = rowStart + plane * bytesPerLine
      for (let x = 0; x < width; x++) rgba[outRow + x * 4 + plane] = scanlines[planeStart + x]!
    }
  }
  return rgba
}
