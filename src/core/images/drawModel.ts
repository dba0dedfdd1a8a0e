import { MD2Error } from '../MD2Error.js'
import type { MD2ModelData } from '../format/types.js'
import type { DecodedImage } from './decodedImage.js'

export interface DrawModelOptions {
  /** The keyframe drawn (default 0). */
  frame?: number
  width: number
  height: number
  /**
   * Where it is seen from, in degrees about the model's up axis: 0 its front (Quake's +X, where it faces), 90 its
   * left side, 180 its back.
   */
  yaw?: number
  /** Texels of margin around the model (default 1). */
  margin?: number
}

/**
 * A keyframe drawn unlit in an image, seen level from `yaw`, fitted to the image (an orthographic view): each
 * triangle's texels from `skin` (nearest, st wrapping as the engines repeat them), nearer triangles over
 * farther ones; grey without a skin; transparent where nothing is drawn. What a player's HUD icon is made
 * from, and a way to compare a model's colours without a GPU. RGBA, top row first.
 */
export function drawModel(model: MD2ModelData, skin: DecodedImage | undefined, options: DrawModelOptions): DecodedImage {
  const { width, height } = options
  const frame = options.frame ?? 0
  const margin = options.margin ?? 1
  if (!(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0 && width * height <= 1 << 24))
    throw new MD2Error('BAD_ARGUMENT', `drawModel: ${width} × ${height} is not an image size (whole numbers, at most 2^24 pixels)`)
  const { numVertices, numFrames, numTris, skinWidth, skinHeight } = model.header
  if (!(Number.isInteger(frame) && frame >= 0 && frame < numFrames))
    throw new MD2Error('BAD_ARGUMENT', `drawModel: frame ${frame} is not one of the model's ${numFrames}`)
  const yaw = ((options.yaw ?? 0) * Math.PI) / 180
  const cos = Math.cos(yaw)
  const sin = Math.sin(yaw)
  // The frame's vertices in the view: x to the right, y down, depth towards the viewer.
  const view = new Float64Array(numVertices * 3)
  const t = model.frameTransforms
  const base = frame * model.frameStride + 40
  let minX = Infinity
  let maxX = -Infinity
  let minY = Infinity
  let maxY = -Infinity
  for (let v = 0; v < numVertices; v++) {
    const at = base + v * 4
    const x = model.frameData[at]! * t[frame * 6]! + t[frame * 6 + 3]!
    const y = model.frameData[at + 1]! * t[frame * 6 + 1]! + t[frame * 6 + 4]!
    const z = model.frameData[at + 2]! * t[frame * 6 + 2]! + t[frame * 6 + 5]!
    // Turned by −yaw, then seen from +X looking back: +Y (the model's left) is the viewer's right.
    const depth = x * cos + y * sin
    const right = -x * sin + y * cos
    view[v * 3] = right
    view[v * 3 + 1] = -z
    view[v * 3 + 2] = depth
    minX = Math.min(minX, right)
    maxX = Math.max(maxX, right)
    minY = Math.min(minY, -z)
    maxY = Math.max(maxY, -z)
  }
  const scale = Math.min((width - 2 * margin) / Math.max(maxX - minX, 1e-9), (height - 2 * margin) / Math.max(maxY - minY, 1e-9))
  const offsetX = (width - (maxX - minX) * scale) / 2 - minX * scale
  const offsetY = (height - (maxY - minY) * scale) / 2 - minY * scale
  for (let v = 0; v < numVertices; v++) {
    view[v * 3] = view[v * 3]! * scale + offsetX
    view[v * 3 + 1] = view[v * 3 + 1]! * scale + offsetY
  }
  const out = new Uint8Array(width * height * 4)
  const depth = new Float64Array(width * height).fill(-Infinity)
  const corner = [0, 0, 0]
  const st = [0, 0, 0, 0, 0, 0]
  for (let tri = 0; tri < numTris; tri++) {
    for (let k = 0; k < 3; k++) {
      corner[k] = model.triangles[tri * 6 + k]!
      const s = model.triangles[tri * 6 + 3 + k]!
      st[k * 2] = model.st[s * 2]!
      st[k * 2 + 1] = model.st[s * 2 + 1]!
    }
    const [a, b, c] = corner as [number, number, number]
    const ax = view[a * 3]!
    const ay = view[a * 3 + 1]!
    const bx = view[b * 3]!
    const by = view[b * 3 + 1]!
    const cx = view[c * 3]!
    const cy = view[c * 3 + 1]!
    const area = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    if (Math.abs(area) < 1e-12) continue
    const x0 = Math.max(0, Math.floor(Math.min(ax, bx, cx)))
    const x1 = Math.min(width - 1, Math.ceil(Math.max(ax, bx, cx)))
    const y0 = Math.max(0, Math.floor(Math.min(ay, by, cy)))
    const y1 = Math.min(height - 1, Math.ceil(Math.max(ay, by, cy)))
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++) {
        // Sampled at the pixel's centre.
        const px = x + 0.5
        const py = y + 0.5
        const wa = ((bx - px) * (cy - py) - (by - py) * (cx - px)) / area
        const wb = ((cx - px) * (ay - py) - (cy - py) * (ax - px)) / area
        const wc = 1 - wa - wb
        if (wa < 0 || wb < 0 || wc < 0) continue
        const z = wa * view[a * 3 + 2]! + wb * view[b * 3 + 2]! + wc * view[c * 3 + 2]!
        const i = y * width + x
        if (z <= depth[i]!) continue
        depth[i] = z
        if (!skin) {
          out.set([160, 160, 160, 255], i * 4)
          continue
        }
        const s = (wa * st[0]! + wb * st[2]! + wc * st[4]!) / skinWidth
        const u = (wa * st[1]! + wb * st[3]! + wc * st[5]!) / skinHeight
        const sx = ((Math.floor(s * skin.width) % skin.width) + skin.width) % skin.width
        const sy = ((Math.floor(u * skin.height) % skin.height) + skin.height) % skin.height
        const from = (sy * skin.width + sx) * 4
        out[i * 4] = skin.data[from]!
        out[i * 4 + 1] = skin.data[from + 1]!
        out[i * 4 + 2] = skin.data[from + 2]!
        out[i * 4 + 3] = 255
      }
  }
  return { width, height, data: out }
}
