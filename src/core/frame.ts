import { MD2Error } from './errors'
import { ANORMS_256 } from './normals'
import type { MD2Frame, MD2Model } from './types'

function frameAt(model: MD2Model, index: number): MD2Frame {
  const frame = Number.isInteger(index) ? model.frames[index] : undefined
  if (!frame) {
    throw new MD2Error('BAD_ARGUMENT', `frame ${index} does not exist (the model has frames 0–${model.frames.length - 1})`, {
      file: model.name,
    })
  }
  return frame
}

function outputFor(model: MD2Model, out: Float32Array | undefined): Float32Array {
  const length = model.header.numVertices * 3
  if (out === undefined) return new Float32Array(length)
  if (out.length < length) {
    throw new MD2Error('BAD_ARGUMENT', `output holds ${out.length} floats, ${length} are needed`, { file: model.name })
  }
  return out
}

/**
 * Positions of one frame: `numVertices × 3` floats, `v × scale + translate`, in the file's own
 * coordinates (Quake II: X forward, Y left, Z up).
 */
export function decodeFrame(model: MD2Model, index: number, out?: Float32Array): Float32Array {
  const { vertices, scale, translate } = frameAt(model, index)
  const positions = outputFor(model, out)
  const [sx, sy, sz] = scale
  const [tx, ty, tz] = translate
  for (let v = 0, o = 0; v < vertices.length; v += 4, o += 3) {
    positions[o] = vertices[v]! * sx + tx
    positions[o + 1] = vertices[v + 1]! * sy + ty
    positions[o + 2] = vertices[v + 2]! * sz + tz
  }
  return positions
}

/** Unit normals of one frame from the anorms table (indices past 161 read as straight up). */
export function decodeFrameNormals(model: MD2Model, index: number, out?: Float32Array): Float32Array {
  const { vertices } = frameAt(model, index)
  const normals = outputFor(model, out)
  for (let v = 0, o = 0; v < vertices.length; v += 4, o += 3) {
    const n = vertices[v + 3]! * 3
    normals[o] = ANORMS_256[n]!
    normals[o + 1] = ANORMS_256[n + 1]!
    normals[o + 2] = ANORMS_256[n + 2]!
  }
  return normals
}

/**
 * Positions between frames `from` and `to` at `t` (0 = from, 1 = to), as the Quake II client blends
 * them: `from·scale·(1−t) + to·scale·t + lerp(translates)`. File coordinates.
 */
export function blendFrames(model: MD2Model, from: number, to: number, t: number, out?: Float32Array): Float32Array {
  const a = frameAt(model, from)
  const b = frameAt(model, to)
  const positions = outputFor(model, out)
  const back = 1 - t
  const ax = a.scale[0] * back, ay = a.scale[1] * back, az = a.scale[2] * back
  const bx = b.scale[0] * t, by = b.scale[1] * t, bz = b.scale[2] * t
  const cx = a.translate[0] * back + b.translate[0] * t
  const cy = a.translate[1] * back + b.translate[1] * t
  const cz = a.translate[2] * back + b.translate[2] * t
  const va = a.vertices
  const vb = b.vertices
  for (let v = 0, o = 0; v < va.length; v += 4, o += 3) {
    positions[o] = va[v]! * ax + vb[v]! * bx + cx
    positions[o + 1] = va[v + 1]! * ay + vb[v + 1]! * by + cy
    positions[o + 2] = va[v + 2]! * az + vb[v + 2]! * bz + cz
  }
  return positions
}

/** The axis-aligned bounds of one frame's decoded vertices, file coordinates. */
export function frameBounds(model: MD2Model, index: number): { min: [number, number, number]; max: [number, number, number] } {
  const { vertices, scale, translate } = frameAt(model, index)
  const lo = [255, 255, 255]
  const hi = [0, 0, 0]
  for (let v = 0; v < vertices.length; v += 4) {
    for (let k = 0; k < 3; k++) {
      const q = vertices[v + k]!
      if (q < lo[k]!) lo[k] = q
      if (q > hi[k]!) hi[k] = q
    }
  }
  // A negative scale (legal, if odd) swaps which byte gives the lower coordinate.
  const ends = [0, 1, 2].map((k) => [lo[k]! * scale[k]! + translate[k]!, hi[k]! * scale[k]! + translate[k]!] as const)
  const min = ends.map(([p, q]) => Math.min(p, q)) as [number, number, number]
  const max = ends.map(([p, q]) => Math.max(p, q)) as [number, number, number]
  return { min, max }
}
