import { decode } from 'jpeg-js'
import { checkImageSize, failImage, toImageBytes, type DecodedImage, type ImageDecodeOptions } from './decodedImage.js'

/** Start-of-frame markers (baseline, extended, progressive, lossless; Huffman and arithmetic): they give the size. */
const START_OF_FRAME = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf])

/**
 * A JPEG as RGBA, 8 bits per channel, first row at the top (the textures glTF characters ship with), decoded
 * by `jpeg-js`. The size is read from the frame header and checked against `maxPixels` before anything is
 * decoded; a damaged file is a `BAD_IMAGE` `MD2Error`.
 */
export function decodeJPEG(bytes: Uint8Array | ArrayBuffer, options: ImageDecodeOptions = {}): DecodedImage {
  const data = toImageBytes(bytes, options.name)
  if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8)
    failImage('jpeg', 'header', 0, 'not a JPEG image (no SOI marker)', options.name)
  const { width, height, offset } = frameSize(data, options.name)
  if (width === 0 || height === 0) failImage('jpeg', 'header', offset, `${width} × ${height} pixels`, options.name)
  checkImageSize('jpeg', width, height, options, offset)
  let decoded: { width: number; height: number; data: Uint8Array }
  try {
    decoded = decode(data, {
      useTArray: true,
      formatAsRGBA: true,
      // The checks above bound the size; these keep the decoder's own limits at least as wide.
      maxResolutionInMP: Math.ceil((width * height) / 1e6) + 1,
      maxMemoryUsageInMB: Math.ceil((width * height * 8) / 2 ** 20) + 64,
    })
  } catch (error) {
    failImage('jpeg', 'data', undefined, error instanceof Error ? error.message : String(error), options.name)
  }
  if (decoded.width !== width || decoded.height !== height || decoded.data.length !== width * height * 4)
    failImage('jpeg', 'data', undefined, `decoded ${decoded.width} × ${decoded.height}, the header says ${width} × ${height}`, options.name)
  return { width, height, data: decoded.data }
}

/** The image size from the first start-of-frame segment, walking the segments from the start. */
function frameSize(data: Uint8Array, name: string | undefined): { width: number; height: number; offset: number } {
  let at = 2
  while (at + 4 <= data.length) {
    if (data[at] !== 0xff) failImage('jpeg', 'header', at, `expected a marker, found 0x${data[at]!.toString(16)}`, name)
    const marker = data[at + 1]!
    // Fill bytes and markers without a length.
    if (marker === 0xff) {
      at++
      continue
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2
      continue
    }
    const length = (data[at + 2]! << 8) | data[at + 3]!
    if (START_OF_FRAME.has(marker)) {
      if (at + 9 > data.length) break
      return { height: (data[at + 5]! << 8) | data[at + 6]!, width: (data[at + 7]! << 8) | data[at + 8]!, offset: at + 5 }
    }
    if (marker === 0xda || length < 2) break
    at += 2 + length
  }
  failImage('jpeg', 'header', at, 'no frame header (SOF) before the image data', name)
}
