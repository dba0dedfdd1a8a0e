/**
 * Truevision TGA decoder: colour-mapped (types 1, 9), true-colour (2, 10) and grey (3, 11) images,
 * raw or run-length encoded.
 *
 * Layout: an 18-byte header, an optional image ID field, an optional colour map, then the pixels.
 * Pixels are little-endian B, G, R(, A); 15/16-bit pixels are packed A1 R5 G5 B5. Rows go bottom to
 * top unless descriptor bit 5 is set, and left to right unless bit 4 is set. A TGA 2.0 footer or
 * extension area after the pixels is ignored.
 */
import {
  type DecodedImage,
  type ImageDecodeOptions,
  type HeaderLayout,
  failImage,
  readImageHeader,
  readUint16LE,
  toImageBytes,
} from './decodedImage.js'

export interface TGAOptions extends ImageDecodeOptions {
  /**
   * Makes every pixel opaque. 32-bit pixels otherwise keep their alpha byte even when the
   * descriptor claims no alpha bits (as Quake II and most loaders do); use this for exporters that
   * wrote an all-zero alpha channel.
   */
  ignoreAlpha?: boolean
}

type TGAKind = 'colour-mapped' | 'true-colour' | 'grey'

interface TGAHeader {
  idLength: number
  colorMapType: number
  kind: TGAKind
  rle: boolean
  colorMapFirst: number
  colorMapLength: number
  colorMapEntrySize: number
  width: number
  height: number
  pixelDepth: number
  /** Attribute (alpha) bits per pixel, descriptor bits 0–3. */
  alphaBits: number
  /** Descriptor bit 5: the first row in the file is the top one. */
  topToBottom: boolean
  /** Descriptor bit 4: each row in the file starts at the right. */
  rightToLeft: boolean
}

const HEADER_SIZE = 18
const KINDS: Record<number, TGAKind> = { 1: 'colour-mapped', 2: 'true-colour', 3: 'grey' }
const TRUE_COLOUR_DEPTHS = [15, 16, 24, 32]
/** An RLE packet header covers at most 128 pixels. */
const MAX_PACKET_PIXELS = 128

/** Decodes a TGA skin to RGBA. Throws `MD2Error` `BAD_IMAGE` when the file is damaged or unsupported. */
export function decodeTGA(bytes: Uint8Array | ArrayBuffer, options: TGAOptions = {}): DecodedImage {
  const file = options.name
  const data = toImageBytes(bytes, file)
  const header = readImageHeader(data, HEADER, options)
  const colorMapStart = HEADER_SIZE + header.idLength
  if (colorMapStart > data.length) {
    const message = `image ID field of ${header.idLength} bytes runs past the end of the file`
    failImage('tga', 'id', HEADER_SIZE, message, file)
  }
  // A colour map is skipped, not refused, when a true-colour or grey image carries one.
  const colorMapSize = header.colorMapType === 1 ? header.colorMapLength * bytesPerEntry(header.colorMapEntrySize) : 0
  const pixelStart = colorMapStart + colorMapSize
  if (pixelStart > data.length) {
    const message = `colour map of ${colorMapSize} bytes runs past the end of the file`
    failImage('tga', 'colour map', colorMapStart, message, file)
  }
  const bytesPerPixel = bytesPerEntry(header.pixelDepth)
  const pixels = header.rle
    ? expandPackets(data, pixelStart, header, bytesPerPixel, file)
    : rawPixels(data, pixelStart, header, bytesPerPixel, file)
  const rgba = toRGBA(pixels, header, data.subarray(colorMapStart, pixelStart), file)
  if (options.ignoreAlpha === true) makeOpaque(rgba)
  orient(rgba, header)
  return { width: header.width, height: header.height, data: rgba }
}

function bytesPerEntry(bits: number): number {
  return Math.ceil(bits / 8)
}

function readHeader(data: Uint8Array, file: string | undefined): TGAHeader {
  const colorMapType = data[1]!
  const imageType = data[2]!
  const pixelDepth = data[16]!
  const descriptor = data[17]!
  if (colorMapType > 1) failImage('tga', 'header', 1, `colour map type ${colorMapType} is unknown (0 or 1)`, file)
  if (imageType === 0) failImage('tga', 'header', 2, 'image type 0 holds no image data', file)
  // 9, 10 and 11 are the run-length encoded forms of 1, 2 and 3.
  const kind = KINDS[imageType & ~8]
  if (kind === undefined) {
    failImage('tga', 'header', 2, `image type ${imageType} is not supported (1, 2, 3, 9, 10, 11 are)`, file)
  }
  const header: TGAHeader = {
    idLength: data[0]!,
    colorMapType,
    kind,
    rle: (imageType & 8) !== 0,
    colorMapFirst: readUint16LE(data, 3),
    colorMapLength: readUint16LE(data, 5),
    colorMapEntrySize: data[7]!,
    width: readUint16LE(data, 12),
    height: readUint16LE(data, 14),
    pixelDepth,
    alphaBits: descriptor & 0x0f,
    topToBottom: (descriptor & 0x20) !== 0,
    rightToLeft: (descriptor & 0x10) !== 0,
  }
  if (header.width === 0 || header.height === 0) {
    failImage('tga', 'header', 12, `image is ${header.width}×${header.height} pixels`, file)
  }
  if ((descriptor & 0xc0) !== 0) failImage('tga', 'header', 17, 'interleaved rows are not supported', file)
  checkDepths(header, file)
  return header
}

/** The header, the image size at bytes 12 to 15. */
const HEADER: HeaderLayout<TGAHeader> = { format: 'tga', size: HEADER_SIZE, sizeOffset: 12, read: readHeader }

function checkDepths(header: TGAHeader, file: string | undefined): void {
  const { kind, pixelDepth } = header
  if (kind === 'colour-mapped') {
    if (header.colorMapType !== 1) failImage('tga', 'header', 1, 'a colour-mapped image has no colour map', file)
    if (!TRUE_COLOUR_DEPTHS.includes(header.colorMapEntrySize)) {
      const message = `colour map entries of ${header.colorMapEntrySize} bits are not supported (15, 16, 24, 32 are)`
      failImage('tga', 'header', 7, message, file)
    }
    if (pixelDepth !== 8 && pixelDepth !== 16) {
      const message = `colour map indices of ${pixelDepth} bits are not supported (8, 16 are)`
      failImage('tga', 'header', 16, message, file)
    }
  } else if (kind === 'true-colour' && !TRUE_COLOUR_DEPTHS.includes(pixelDepth)) {
    const message = `true-colour pixels of ${pixelDepth} bits are not supported (15, 16, 24, 32 are)`
    failImage('tga', 'header', 16, message, file)
  } else if (kind === 'grey' && pixelDepth !== 8 && pixelDepth !== 16) {
    const message = `grey pixels of ${pixelDepth} bits are not supported (8, 16 with alpha are)`
    failImage('tga', 'header', 16, message, file)
  }
}

/** Uncompressed pixels: a view on the file, after checking that they are all there. */
function rawPixels(data: Uint8Array, start: number, header: TGAHeader, bytesPerPixel: number, file: string | undefined): Uint8Array {
  const size = header.width * header.height * bytesPerPixel
  if (start + size > data.length) {
    const message = `${header.width}×${header.height} pixels need ${size} bytes, the file has ${data.length - start}`
    failImage('tga', 'pixels', start, message, file)
  }
  return data.subarray(start, start + size)
}

/**
 * Expands RLE packets, in file order, into `width × height` pixels. Packets may cross row ends. A
 * packet header byte's high bit marks a run (one pixel value repeated), else a raw packet of
 * literal pixels; either covers `(byte & 0x7f) + 1` pixels.
 */
function expandPackets(data: Uint8Array, start: number, header: TGAHeader, bytesPerPixel: number, file: string | undefined): Uint8Array {
  const pixelCount = header.width * header.height
  // Refuse before allocating: each packet of at most 128 pixels costs at least 1 + bytesPerPixel bytes.
  const available = data.length - start
  if (pixelCount > Math.ceil(available / (1 + bytesPerPixel)) * MAX_PACKET_PIXELS) {
    const message = `${header.width}×${header.height} pixels cannot come from ${available} bytes of packets`
    failImage('tga', 'rle', start, message, file)
  }
  const size = pixelCount * bytesPerPixel
  const pixels = new Uint8Array(size)
  let read = start
  let written = 0
  while (written < size) {
    if (read >= data.length) {
      failImage('tga', 'rle', read, `packets end after ${written / bytesPerPixel} of ${pixelCount} pixels`, file)
    }
    const packet = data[read++]!
    // A packet that overshoots the last pixel is clipped: the surplus has nowhere to go.
    const packetEnd = Math.min(written + ((packet & 0x7f) + 1) * bytesPerPixel, size)
    if ((packet & 0x80) !== 0) {
      if (read + bytesPerPixel > data.length) failImage('tga', 'rle', read - 1, 'run packet has no pixel value', file)
      const value = data.subarray(read, read + bytesPerPixel)
      for (let o = written; o < packetEnd; o += bytesPerPixel) pixels.set(value, o)
      read += bytesPerPixel
    } else {
      const literalEnd = read + (packetEnd - written)
      if (literalEnd > data.length) failImage('tga', 'rle', read - 1, 'raw packet runs past the end of the file', file)
      pixels.set(data.subarray(read, literalEnd), written)
      read = literalEnd
    }
    written = packetEnd
  }
  return pixels
}

/** File-order pixels to file-order RGBA. */
function toRGBA(pixels: Uint8Array, header: TGAHeader, colorMap: Uint8Array, file: string | undefined): Uint8Array {
  if (header.kind === 'grey') return greyToRGBA(pixels, header.pixelDepth)
  if (header.kind === 'true-colour') return trueColourToRGBA(pixels, header.pixelDepth, header.alphaBits)
  const palette = trueColourToRGBA(colorMap, header.colorMapEntrySize, header.alphaBits)
  return lookUpColorMap(pixels, header, palette, file)
}

/**
 * `depth`-bit B, G, R(, A) values to RGBA. 5-bit channels are widened by repeating their top bits
 * (31 → 255, 16 → 132), which maps 0 and 31 exactly to 0 and 255. The 16-bit attribute bit is
 * alpha only when the descriptor declares alpha bits: writers commonly leave it 0 in opaque files.
 */
function trueColourToRGBA(pixels: Uint8Array, depth: number, alphaBits: number): Uint8Array {
  const bytesPerPixel = bytesPerEntry(depth)
  const count = Math.floor(pixels.length / bytesPerPixel)
  const rgba = new Uint8Array(count * 4)
  if (bytesPerPixel === 2) {
    const attributeIsAlpha = depth === 16 && alphaBits > 0
    for (let i = 0, o = 0; i < pixels.length; i += 2, o += 4) {
      const value = pixels[i]! | (pixels[i + 1]! << 8)
      rgba[o] = widen5((value >> 10) & 0x1f)
      rgba[o + 1] = widen5((value >> 5) & 0x1f)
      rgba[o + 2] = widen5(value & 0x1f)
      rgba[o + 3] = attributeIsAlpha && (value & 0x8000) === 0 ? 0 : 255
    }
    return rgba
  }
  for (let i = 0, o = 0; o < rgba.length; i += bytesPerPixel, o += 4) {
    rgba[o] = pixels[i + 2]!
    rgba[o + 1] = pixels[i + 1]!
    rgba[o + 2] = pixels[i]!
    rgba[o + 3] = bytesPerPixel === 4 ? pixels[i + 3]! : 255
  }
  return rgba
}

function widen5(value: number): number {
  return (value << 3) | (value >> 2)
}

/** 8-bit grey, or 16-bit grey then alpha. */
function greyToRGBA(pixels: Uint8Array, depth: number): Uint8Array {
  const bytesPerPixel = bytesPerEntry(depth)
  const rgba = new Uint8Array((pixels.length / bytesPerPixel) * 4)
  for (let i = 0, o = 0; o < rgba.length; i += bytesPerPixel, o += 4) {
    const grey = pixels[i]!
    rgba[o] = grey
    rgba[o + 1] = grey
    rgba[o + 2] = grey
    rgba[o + 3] = bytesPerPixel === 2 ? pixels[i + 1]! : 255
  }
  return rgba
}

/** Colour-map indices (8- or 16-bit) to RGBA; indices count from the header's first entry. */
function lookUpColorMap(pixels: Uint8Array, header: TGAHeader, palette: Uint8Array, file: string | undefined): Uint8Array {
  const { colorMapFirst, colorMapLength } = header
  const wide = header.pixelDepth === 16
  const count = wide ? pixels.length / 2 : pixels.length
  const rgba = new Uint8Array(count * 4)
  for (let i = 0, o = 0; i < count; i++, o += 4) {
    const index = wide ? pixels[i * 2]! | (pixels[i * 2 + 1]! << 8) : pixels[i]!
    const entry = index - colorMapFirst
    if (entry < 0 || entry >= colorMapLength) {
      const map = `entries ${colorMapFirst} to ${colorMapFirst + colorMapLength - 1}`
      failImage('tga', 'colour map', undefined, `pixel ${i} uses index ${index}, the colour map has ${map}`, file)
    }
    rgba.set(palette.subarray(entry * 4, entry * 4 + 4), o)
  }
  return rgba
}

function makeOpaque(rgba: Uint8Array): void {
  for (let o = 3; o < rgba.length; o += 4) rgba[o] = 255
}

/** Reorders file-order RGBA in place so that the first row is the top one, read left to right. */
function orient(rgba: Uint8Array, header: TGAHeader): void {
  const { width, height } = header
  const rowBytes = width * 4
  if (!header.topToBottom) {
    const spare = new Uint8Array(rowBytes)
    for (let top = 0, bottom = height - 1; top < bottom; top++, bottom--) {
      spare.set(rgba.subarray(top * rowBytes, top * rowBytes + rowBytes))
      rgba.copyWithin(top * rowBytes, bottom * rowBytes, bottom * rowBytes + rowBytes)
      rgba.set(spare, bottom * rowBytes)
    }
  }
  if (header.rightToLeft) {
    // Whole pixels as 32-bit words: reversing them keeps each pixel's bytes in order.
    const words = new Uint32Array(rgba.buffer, rgba.byteOffset, width * height)
    for (let y = 0; y < height; y++) words.subarray(y * width, y * width + width).reverse()
  }
}
