import { encode } from 'fast-png'
import { MD2Error } from '../MD2Error.js'
import type { DecodedImage } from './decodedImage.js'

/** An RGBA image (first row at the top) as PNG bytes: what glTF embeds, and what any viewer opens. */
export function encodePNG(image: DecodedImage): Uint8Array {
  const { width, height, data } = image
  if (!(width > 0 && height > 0) || data.length !== width * height * 4)
    throw new MD2Error('BAD_ARGUMENT', `encodePNG: ${width} × ${height} RGBA needs ${width * height * 4} bytes, got ${data.length}`)
  return encode({ width, height, data, channels: 4, depth: 8 })
}
