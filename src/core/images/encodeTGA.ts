import { MD2Error } from '../MD2Error.js'
import type { DecodedImage } from './decodedImage.js'

/**
 * An RGBA image (first row at the top) as an uncompressed 32-bit TGA: rows written bottom first, as
 * Quake II's loader reads every TGA whatever its origin bit says; alpha declared (8 attribute bits).
 */
export function encodeTGA(image: DecodedImage): Uint8Array {
  const { width, height, data } = image
  if (!(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0 && width <= 65535 && height <= 65535))
    throw new MD2Error('BAD_ARGUMENT', `encodeTGA: ${width} × ${height} is not an image size from 1 to 65,535`)
  if (data.length !== width * height * 4)
    throw new MD2Error('BAD_ARGUMENT', `encodeTGA: ${width} × ${height} RGBA needs ${width * height * 4} bytes, got ${data.length}`)
  const out = new Uint8Array(18 + width * height * 4)
  const view = new DataView(out.buffer)
  out[2] = 2 // uncompressed true-colour
  view.setUint16(12, width, true)
  view.setUint16(14, height, true)
  out[16] = 32
  out[17] = 0x08 // 8 alpha bits, bottom-left origin
  let at = 18
  for (let y = height - 1; y >= 0; y--) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4
      out[at++] = data[i + 2]!
      out[at++] = data[i + 1]!
      out[at++] = data[i]!
      out[at++] = data[i + 3]!
    }
  }
  return out
}
