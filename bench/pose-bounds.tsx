/**
 * Pose bounds on the CPU: N running ogros with `<MD2PoseBounds>` (the box of the pose found in the pass
 * that writes the vertices) against N with the default all-frames box, same run, alternating.
 */
import { MD2PoseBounds } from '../src/react/looks/MD2PoseBounds'
import { compareOgros, type CountedCompareOptions } from './lib/compare'
import { type Table, fmt, perFrameNote, ratio } from './lib/stats'

export async function runPoseBoundsBench(options: CountedCompareOptions): Promise<Table> {
  const n = options.count
  const { frames, pose } = await compareOgros(
    ['frames', 'pose'],
    (_, i) => ({ speed: 0.9 + (i % 7) * 0.03 }),
    options,
    (bounds) => (bounds === 'pose' ? <MD2PoseBounds /> : null),
  )
  return {
    title: 'Pose bounds, CPU: <MD2PoseBounds> vs the all-frames box',
    note:
      perFrameNote(options) +
      `${n} running Ogros; "pose" finds the box of the pose drawn in the pass that writes the vertices and sets the ` +
      "geometry's boundingBox and boundingSphere (what Box3.setFromObject reads).",
    head: ['ogros', 'frames ms', 'pose ms', 'ratio'],
    rows: [[n, fmt(frames, 3), fmt(pose, 3), ratio(pose / frames, 2)]],
    footer: [`Pose bounds add ${fmt(((pose - frames) / n) * 1000, 2)} µs per model per frame.`],
  }
}
