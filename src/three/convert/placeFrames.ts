import { MD2Error } from '../../core/MD2Error.js'
import type { BakeMD2Options, BakedMD2 } from './bakeMD2.js'

// Where a bake's frames go: scaled to a height, moved to an origin, and a standing pose tipped over into a fall.
// Frames are three's axes (x, y, z per vertex: MD2's y, z, x); options and results are MD2's.

function badOption(message: string): never {
  throw new MD2Error('BAD_ARGUMENT', message, { section: 'options' })
}

/** Each axis's lowest and highest value over a frame's (x, y, z) positions. */
function boundsOf(frame: Float32Array): [number, number][] {
  const bounds: [number, number][] = [0, 1, 2].map(() => [Infinity, -Infinity])
  for (let i = 0; i < frame.length; i++) {
    const axis = bounds[i % 3]!
    axis[0] = Math.min(axis[0], frame[i]!)
    axis[1] = Math.max(axis[1], frame[i]!)
  }
  return bounds
}

/** A point in MD2's axes (x forward, y left, z up) checked: three finite numbers. */
export function checkPoint(name: string, point: unknown): void {
  if (point === undefined) return
  if (!(Array.isArray(point) && point.length === 3 && point.every((v) => typeof v === 'number' && Number.isFinite(v))))
    badOption(`${name} takes three finite numbers (x, y, z in MD2's axes), got ${JSON.stringify(point)}`)
}

/**
 * The frames (three's axes: MD2's y, z, x) scaled so that the first is `height` tall and moved so that its lowest
 * point is at `origin`'s height and the scene's origin at its x, y (or moved by `offset`), in place; the placement, including the scale the frames were sampled at.
 */
export function placeFrames(frames: Float32Array[], scale: number, options: BakeMD2Options): BakedMD2['placement'] {
  const { height, origin, offset } = options
  const bounds = boundsOf(frames[0]!)
  let factor = 1
  if (height !== undefined) {
    const tall = bounds[1]![1] - bounds[1]![0]
    if (!(tall > 0)) badOption(`height ${height}: the first frame has no height to scale`)
    factor = height / tall
  }
  let move = [0, 0, 0]
  // Across, the scene's own origin (a rig's root, between the feet) rather than the bounds' middle, which a
  // held weapon or a stride would shift; up, the lowest point.
  if (origin) move = [origin[1], origin[2] - bounds[1]![0] * factor, origin[0]]
  else if (offset) move = [offset[1], offset[2], offset[0]]
  if (factor !== 1 || move.some((v) => v !== 0))
    for (const frame of frames) for (let i = 0; i < frame.length; i++) frame[i] = frame[i]! * factor + move[i % 3]!
  return { scale: scale * factor, offset: [move[2]!, move[0]!, move[1]!] }
}

/** The frame tipped over backwards (towards three's -Z, MD2's -x) by `amount` of a quarter turn, its lowest point kept. */
export function tipOver(frame: Float32Array, amount: number): void {
  const bounds = boundsOf(frame)
  const floor = bounds[1]![0]
  const pivot = (bounds[2]![0] + bounds[2]![1]) / 2
  const angle = (-Math.PI / 2) * Math.min(1, Math.max(0, amount))
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)]
  let lowest = Infinity
  for (let i = 0; i < frame.length; i += 3) {
    const y = frame[i + 1]! - floor
    const z = frame[i + 2]! - pivot
    frame[i + 1] = y * cos - z * sin + floor
    frame[i + 2] = y * sin + z * cos + pivot
    lowest = Math.min(lowest, frame[i + 1]!)
  }
  for (let i = 1; i < frame.length; i += 3) frame[i] = frame[i]! + floor - lowest
}
