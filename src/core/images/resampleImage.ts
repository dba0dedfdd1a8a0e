import { MD2Error } from '../MD2Error.js'
import type { DecodedImage } from './decodedImage.js'

/** For each output pixel along one axis: the first source pixel it reads and the weights from there. */
interface AxisWeights {
  first: Int32Array
  count: Int32Array
  weights: Float32Array
  /** The most source pixels one output pixel reads (weights are stored `span` apart). */
  span: number
}

/**
 * Weights along one axis. Shrinking: each output pixel is the average of the source area it covers (a box
 * filter over exact coverage, so every source pixel counts once and nothing aliases). Enlarging: linear
 * interpolation between the two nearest source pixel centres.
 */
function axisWeights(from: number, to: number): AxisWeights {
  const ratio = from / to
  const span = ratio > 1 ? Math.ceil(ratio) + 1 : 2
  const first = new Int32Array(to)
  const count = new Int32Array(to)
  const weights = new Float32Array(to * span)
  for (let i = 0; i < to; i++) {
    if (ratio > 1) {
      const start = i * ratio
      const end = start + ratio
      const lo = Math.floor(start)
      const hi = Math.min(from, Math.ceil(end))
      first[i] = lo
      count[i] = hi - lo
      for (let s = lo; s < hi; s++) weights[i * span + s - lo] = (Math.min(end, s + 1) - Math.max(start, s)) / ratio
    } else {
      const centre = Math.min(from - 1, Math.max(0, (i + 0.5) * ratio - 0.5))
      const lo = Math.floor(centre)
      const t = centre - lo
      first[i] = lo
      count[i] = lo + 1 < from ? 2 : 1
      weights[i * span] = count[i] === 2 ? 1 - t : 1
      if (count[i] === 2) weights[i * span + 1] = t
    }
  }
  return { first, count, weights, span }
}

/**
 * An RGBA image at another size: averaged over the area each new pixel covers when shrinking, linearly
 * interpolated when enlarging, in premultiplied alpha (a transparent pixel's colour does not bleed into its
 * neighbours). Pure TypeScript: the CLI and the browser bake fit skins with it.
 */
export function resampleImage(image: DecodedImage, width: number, height: number): DecodedImage {
  const { width: w0, height: h0, data } = image
  if (!(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0 && width * height <= 1 << 26))
    throw new MD2Error('BAD_ARGUMENT', `resampleImage: ${width} × ${height} is not a size (whole numbers, at most 2^26 pixels)`, {
      section: 'skin',
    })
  if (!(w0 > 0 && h0 > 0) || data.length !== w0 * h0 * 4)
    throw new MD2Error('BAD_ARGUMENT', `resampleImage: ${w0} × ${h0} RGBA needs ${w0 * h0 * 4} bytes, got ${data.length}`, {
      section: 'skin',
    })
  if (width === w0 && height === h0) return { width, height, data: data.slice() }
  const xs = axisWeights(w0, width)
  const ys = axisWeights(h0, height)
  // Horizontal pass into floats (premultiplied), one source row at a time.
  const rows = new Float32Array(width * h0 * 4)
  for (let y = 0; y < h0; y++) {
    const row = y * w0 * 4
    for (let x = 0; x < width; x++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0
      const lo = xs.first[x]!
      for (let k = 0, n = xs.count[x]!; k < n; k++) {
        const weight = xs.weights[x * xs.span + k]!
        const s = row + (lo + k) * 4
        const alpha = data[s + 3]! * weight
        r += data[s]! * alpha
        g += data[s + 1]! * alpha
        b += data[s + 2]! * alpha
        a += alpha
      }
      const o = (y * width + x) * 4
      rows[o] = r
      rows[o + 1] = g
      rows[o + 2] = b
      rows[o + 3] = a
    }
  }
  const out = new Uint8Array(width * height * 4)
  for (let y = 0; y < height; y++) {
    const lo = ys.first[y]!
    for (let x = 0; x < width; x++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0
      for (let k = 0, n = ys.count[y]!; k < n; k++) {
        const weight = ys.weights[y * ys.span + k]!
        const s = ((lo + k) * width + x) * 4
        r += rows[s]! * weight
        g += rows[s + 1]! * weight
        b += rows[s + 2]! * weight
        a += rows[s + 3]! * weight
      }
      const o = (y * width + x) * 4
      // Back from premultiplied: a fully transparent pixel keeps black.
      out[o] = a > 0 ? Math.min(255, Math.round(r / a)) : 0
      out[o + 1] = a > 0 ? Math.min(255, Math.round(g / a)) : 0
      out[o + 2] = a > 0 ? Math.min(255, Math.round(b / a)) : 0
      out[o + 3] = Math.min(255, Math.round(a))
    }
  }
  return { width, height, data: out }
}
