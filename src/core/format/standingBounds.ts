import { findAnimation } from './animationTable.js'
import { FRAME_HEADER_SIZE } from './spec.js'
import type { MD2ModelData } from './types.js'
import { warnOnce } from '../warnOnce.js'

/**
 * Where a character's origin is put at its component's position: `'quake2'`, the file's own origin (Quake II's:
 * about the waist, the feet some 24 units below it); `'feet'`, the lowest point of its standing frame, so a
 * character placed at y = 0 stands on a floor at y = 0.
 */
export type MD2Origin = 'feet' | 'quake2'

/** A model's standing frame and its box, as the model is drawn (Y-up, facing +Z, in model units). */
export interface MD2StandingBounds {
  /** The frame measured: the first of the model's `stand` animation, else frame 0. */
  readonly frame: number
  readonly min: readonly [number, number, number]
  readonly max: readonly [number, number, number]
  /** `max[1] − min[1]`: what `height` props scale to (about 56 for a Quake II player). */
  readonly height: number
}

const measured = new WeakMap<MD2ModelData, MD2StandingBounds>()

/**
 * The box of `model`'s standing frame, Y-up as drawn: the first frame of its own `stand` animation (found by
 * name, in any case), or frame 0 when it has none; over the vertices its triangles draw (unused ones can lie
 * anywhere). Measured once per model and kept. The same model data always gives the same box: what `height`
 * and `origin="feet"` are measured from on `<MD2Model>`, `<MD2Player>` and `<MD2Instances>`.
 */
export function getStandingBounds(model: MD2ModelData): MD2StandingBounds {
  let bounds = measured.get(model)
  if (bounds === undefined) {
    bounds = measure(model)
    measured.set(model, bounds)
  }
  return bounds
}

function measure(model: MD2ModelData): MD2StandingBounds {
  const frame = findAnimation(model, 'stand')?.start ?? 0
  const { frameData, frameTransforms: m, triangles } = model
  const start = frame * model.frameStride + FRAME_HEADER_SIZE
  const lo = [255, 255, 255]
  const hi = [0, 0, 0]
  // A triangle's six numbers: its three xyz indices, then its three st indices.
  for (let tri = 0; tri < model.header.numTris * 6; tri += 6) {
    for (let k = 0; k < 3; k++) {
      const at = start + triangles[tri + k]! * 4
      for (let q = 0; q < 3; q++) {
        const byte = frameData[at + q]!
        if (byte < lo[q]!) lo[q] = byte
        if (byte > hi[q]!) hi[q] = byte
      }
    }
  }
  if (lo[0]! > hi[0]!) return { frame, min: [0, 0, 0], max: [0, 0, 0], height: 0 }
  // Quake axis q (X forward, Y left, Z up) is Y-up axis (q + 2) mod 3 (animation/yUpAxes.ts); a negative scale swaps the ends.
  const min = [0, 0, 0] as [number, number, number]
  const max = [0, 0, 0] as [number, number, number]
  for (let q = 0; q < 3; q++) {
    const a = Math.fround(lo[q]! * m[frame * 6 + q]! + m[frame * 6 + 3 + q]!)
    const b = Math.fround(hi[q]! * m[frame * 6 + q]! + m[frame * 6 + 3 + q]!)
    const c = (q + 2) % 3
    min[c] = Math.min(a, b)
    max[c] = Math.max(a, b)
  }
  return { frame, min, max, height: max[1] - min[1] }
}

/** How a component draws its model for `height` and `origin`: a uniform scale, then a lift along Y in model units × scale. */
export interface MD2StandingFit {
  /** `height / standing height` (1 without a height). */
  readonly scale: number
  /** Added to Y after the scale (before a user's own `scale`): `−min.y × scale` for the feet, 0 for Quake II's origin. */
  readonly lift: number
}

/**
 * The scale and lift that make `model` `height` units tall standing (as `getStandingBounds` measures it) with its
 * `origin` at the component's position. A `height` that is not a positive finite number, or a model with no
 * height to scale (every drawn vertex at one level), leaves the scale at 1 (the props' checks warn in development;
 * the second warns here, once); an `origin` other than `'feet'` is Quake II's.
 */
export function fitStanding(model: MD2ModelData, height: number | undefined, origin: MD2Origin | undefined): MD2StandingFit {
  const bounds = getStandingBounds(model)
  let scale = 1
  if (typeof height === 'number' && height > 0 && Number.isFinite(height)) {
    if (bounds.height > 0) scale = height / bounds.height
    else
      warnOnce(
        `${model.name}:flat-height`,
        `${model.name ?? 'model'}: its standing frame ${bounds.frame} is flat; height={${height}} ignored`,
      )
  }
  return { scale, lift: origin === 'feet' ? -bounds.min[1] * scale : 0 }
}
