import { toBytes } from '../bytes.js'
import { MD2Error } from '../MD2Error.js'

/** A decoded skin: RGBA, 8 bits per channel, first row at the top, `width × height × 4` bytes. */
export interface DecodedImage {
  width: number
  height: number
  data: Uint8Array
}

/** Options every skin decoder takes. */
export interface ImageDecodeOptions {
  /** File name or URL, quoted in errors. */
  name?: string
  /**
   * The most pixels an image may have (default `DEFAULT_MAX_PIXELS`, 8,192 × 8,192): checked from the
   * header before anything is allocated. Quake II skins are at most a few hundred pixels a side.
   */
  maxPixels?: number
}

/** The default `maxPixels`: 8,192 × 8,192 (256 MiB of RGBA). */
export const DEFAULT_MAX_PIXELS = 8192 * 8192

/** Refuses, before allocating, an image larger than `options.maxPixels` (or the default). */
export function checkImageSize(
  format: 'pcx' | 'tga' | 'png' | 'jpeg',
  width: number,
  height: number,
  options: ImageDecodeOptions,
  offset: number,
): void {
  const limit = options.maxPixels ?? DEFAULT_MAX_PIXELS
  if (width * height > limit) {
    failImage(
      format,
      'header',
      offset,
      `${width} × ${height} pixels is more than the limit of ${limit} (maxPixels; ${Math.floor(Math.sqrt(limit))}² by default)`,
      options.name,
    )
  }
}

export type ImageType = 'pcx' | 'tga' | 'png' | 'jpeg'

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

/**
 * Guesses a skin's format from its first bytes. PNG and JPEG have signatures and PCX a fairly
 * specific header, but TGA has no magic number at all: it is reported only when nothing else matched
 * and its 18-byte header is self-consistent (known image type, pixel depth and colour map for that
 * type, non-zero size, header sections inside the file). Plenty of random bytes pass that test, so
 * `'tga'` means "could be a TGA", and a caller that knows the file name should prefer the extension.
 */
export function sniffImageType(bytes: Uint8Array | ArrayBuffer): ImageType | undefined {
  const data = toImageBytes(bytes, undefined)
  if (startsWith(data, PNG_SIGNATURE)) return 'png'
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'jpeg'
  if (looksLikePCX(data)) return 'pcx'
  if (looksLikeTGA(data)) return 'tga'
  return undefined
}

function startsWith(data: Uint8Array, prefix: readonly number[]): boolean {
  return data.length >= prefix.length && prefix.every((value, i) => data[i] === value)
}

function looksLikePCX(data: Uint8Array): boolean {
  if (data.length < 128) return false
  const [manufacturer, version, encoding, bitsPerPixel] = data
  return (
    manufacturer === 0x0a &&
    version !== undefined &&
    version <= 5 &&
    (encoding === 0 || encoding === 1) &&
    (bitsPerPixel === 1 || bitsPerPixel === 2 || bitsPerPixel === 4 || bitsPerPixel === 8)
  )
}

function looksLikeTGA(data: Uint8Array): boolean {
  if (data.length < 18) return false
  const idLength = data[0]!
  const colorMapType = data[1]!
  const imageType = data[2]!
  const colorMapLength = readUint16LE(data, 5)
  const colorMapEntrySize = data[7]!
  const width = readUint16LE(data, 12)
  const height = readUint16LE(data, 14)
  const pixelDepth = data[16]!
  if (colorMapType > 1 || width === 0 || height === 0) return false
  // 9, 10 and 11 are the run-length encoded forms of 1, 2 and 3.
  const baseType = imageType & ~8
  if (baseType < 1 || baseType > 3) return false
  const colourMapped = baseType === 1
  if (colourMapped && (colorMapType !== 1 || (pixelDepth !== 8 && pixelDepth !== 16))) return false
  if (baseType === 2 && ![15, 16, 24, 32].includes(pixelDepth)) return false
  if (baseType === 3 && pixelDepth !== 8 && pixelDepth !== 16) return false
  if (colorMapType === 1 && ![15, 16, 24, 32].includes(colorMapEntrySize)) return false
  const mapBytes = colorMapType === 1 ? colorMapLength * Math.ceil(colorMapEntrySize / 8) : 0
  return 18 + idLength + mapBytes < data.length
}

/** @internal Little-endian uint16 at `offset`; the caller has checked `offset + 2 <= bytes.length`. */
export function readUint16LE(bytes: Uint8Array, offset: number): number {
  return bytes[offset]! | (bytes[offset + 1]! << 8)
}

/** @internal Accepts what the public decoders accept, as a Uint8Array view (no copy). */
export const toImageBytes = toBytes

/**
 * @internal Throws a BAD_IMAGE error. `section` is the format (`'pcx'`, `'tga'`); the reason starts
 * with the part of the file (`'pcx header'`, `'tga rle'`...) so that the message alone says where.
 */
export function failImage(
  section: 'pcx' | 'tga' | 'png' | 'jpeg',
  part: string,
  offset: number | undefined,
  message: string,
  file: string | undefined,
): never {
  throw new MD2Error('BAD_IMAGE', `${section} ${part}: ${message}`, { section, offset, file })
}

/** @internal Formats a byte for error messages: `0x0b`. */
export function hexByte(value: number): string {
  return `0x${value.toString(16).padStart(2, '0')}`
}

/** A format's fixed header: its size in bytes, where it gives the image size (for errors), and its reader. */
export interface HeaderLayout<Header extends { width: number; height: number }> {
  format: 'pcx' | 'tga'
  size: number
  sizeOffset: number
  /** Reads and checks the header; called once the file is known to hold `size` bytes. */
  read(data: Uint8Array, file: string | undefined): Header
}

/**
 * @internal Reads an image's header as every decoder does: refuses a file too short to hold it, reads
 * it, and refuses the size it declares when larger than `maxPixels`, before anything is allocated.
 */
export function readImageHeader<Header extends { width: number; height: number }>(
  data: Uint8Array,
  { format, size, sizeOffset, read }: HeaderLayout<Header>,
  options: ImageDecodeOptions,
): Header {
  if (data.length < size) failImage(format, 'header', 0, `file is ${data.length} bytes, the header alone needs ${size}`, options.name)
  const header = read(data, options.name)
  checkImageSize(format, header.width, header.height, options, sizeOffset)
  return header
}
