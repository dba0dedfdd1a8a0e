import { FRAME_HEADER_SIZE } from './spec.js'
import { MD2Error } from '../MD2Error.js'
import { ANORMS_256 } from './normals.js'
import type { MD2ModelData } from './types.js'

/** Byte offset in `model.frameData` of frame `index`'s first vertex; throws when there is no such frame. */
function frameStart(model: MD2ModelData, index: number): number {
  const count = model.header.numFrames
  if (!Number.isInteger(index) || index < 0 || index >= count) {
    throw new MD2Error('BAD_ARGUMENT', `frame ${index} does not exist (the model has frames 0–${count - 1})`, {
      file: model.name,
    })
  }
  return index * model.frameStride + FRAME_HEADER_SIZE
}

function outputFor(model: MD2ModelData, out: Float32Array | undefined): Float32Array {
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
export function decodeFrame(model: MD2ModelData, index: number, out?: Float32Array): Float32Array {
  const start = frameStart(model, index)
  const positions = outputFor(model, out)
  const data = model.frameData
  const k = model.frameTransforms
  const m = index * 6
  const sx = k[m]!,
    sy = k[m + 1]!,
    sz = k[m + 2]!
  const tx = k[m + 3]!,
    ty = k[m + 4]!,
    tz = k[m + 5]!
  const end = start + model.header.numVertices * 4
  for (let v = start, o = 0; v < end; v += 4, o += 3) {
    positions[o] = data[v]! * sx + tx
    positions[o + 1] = data[v + 1]! * sy + ty
    positions[o + 2] = data[v + 2]! * sz + tz
  }
  return positions
}

/** Unit normals of one frame from the anorms table (indices past 161 read as straight up). */
export function decodeFrameNormals(model: MD2ModelData, index: number, out?: Float32Array): Float32Array {
  const start = frameStart(model, index)
  const normals = outputFor(model, out)
  const data = model.frameData
  const end = start + model.header.numVertices * 4
  for (let v = start, o = 0; v < end; v += 4, o += 3) {
    const n = data[v + 3]! * 3
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
export function blendFrames(model: MD2ModelData, from: number, to: number, t: number, out?: Float32Array): Float32Array {
  const sa = frameStart(model, from)
  const sb = frameStart(model, to)
  const positions = outputFor(model, out)
  const k = model.frameTransforms
  const a = from * 6
  const b = to * 6
  const back = 1 - t
  const ax = k[a]! * back,
    ay = k[a + 1]! * back,
    az = k[a + 2]! * back
  const bx = k[b]! * t,
    by = k[b + 1]! * t,
    bz = k[b + 2]! * t
  const cx = k[a + 3]! * back + k[b + 3]! * t
  const cy = k[a + 4]! * back + k[b + 4]! * t
  const cz = k[a + 5]! * back + k[b + 5]! * t
  const data = model.frameData
  const count = model.header.numVertices * 4
  for (let v = 0, o = 0; v < count; v += 4, o += 3) {
    const va = sa + v
    const vb = sb + v
    positions[o] = data[va]! * ax + data[vb]! * bx + cx
    positions[o + 1] = data[va + 1]! * ay + data[vb + 1]! * by + cy
    positions[o + 2] = data[va + 2]! * az + data[vb + 2]! * bz + cz
  }
  return positions
}

/** The axis-aligned bounds of one frame's decoded vertices, file coordinates. */
export function frameBounds(model: MD2ModelData, index: number): { min: [number, number, number]; max: [number, number, number] } {
  const start = frameStart(model, index)
  const data = model.frameData
  const end = start + model.header.numVertices * 4
  const lo = [255, 255, 255]
  const hi = [0, 0, 0]
  for (let v = start; v < end; v += 4) {
    for (let k = 0; k < 3; k++) {
      const q = data[v + k]!
      if (q < lo[k]!) lo[k] = q
      if (q > hi[k]!) hi[k] = q
    }
  }
  const m = model.frameTransforms
  const o = index * 6
  // A negative scale (legal, if odd) swaps which byte gives the lower coordinate.
  const ends = [0, 1, 2].map((k) => [lo[k]! * m[o + k]! + m[o + 3 + k]!, hi[k]! * m[o + k]! + m[o + 3 + k]!] as const)
  const min = ends.map(([p, q]) => Math.min(p, q)) as [number, number, number]
  const max = ends.map(([p, q]) => Math.max(p, q)) as [number, number, number]
  return { min, max }
}
