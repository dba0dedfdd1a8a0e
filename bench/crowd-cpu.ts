/**
 * The GPU crowd's CPU side: one `MD2Crowd.update` (animation, culling, writing the per-instance
 * attributes) for 10,000 Ogros, all in view and with the camera seeing a quarter of them, with a tenth
 * of them crossfading at any time. What a frame costs the page besides three's render call.
 */
import { PerspectiveCamera, Vector3 } from 'three'
import { parseMD2 } from '../src/core/format/parseMD2'
import { MD2Crowd } from '../src/three/crowd/MD2Crowd'
import { OGRO, readArrayBuffer } from './lib/models'
import { type Table, CLOCK, fmt, median, now } from './lib/stats'

export function runCrowdCpuBench(options: { rounds: number; frames: number }): Table {
  const model = parseMD2(readArrayBuffer(OGRO), { name: 'tris.MD2' })
  const n = 10_000
  const crowd = new MD2Crowd(model, { limit: n })
  const side = Math.ceil(Math.sqrt(n))
  const position = new Vector3()
  for (let i = 0; i < n; i++) {
    crowd.setTransform(i, { position: position.set((i % side) * 60 - side * 30, 0, Math.floor(i / side) * 60 - side * 30), rotation: i })
    crowd.play(i, i % 3 ? 'run' : 'stand')
  }
  const wide = new PerspectiveCamera(90, 4 / 3, 1, 100_000)
  wide.position.set(0, 12_000, 1)
  wide.lookAt(0, 0, 0)
  const narrow = new PerspectiveCamera(50, 4 / 3, 1, 100_000)
  narrow.position.set(-side * 15, 2000, -side * 15 + 2500)
  narrow.lookAt(-side * 15, 0, -side * 15)
  const rows: (string | number)[][] = []
  for (const [label, camera] of [
    ['all 10,000 in view', wide],
    ['a corner in view', narrow],
  ] as const) {
    const times: number[] = []
    let drawn = 0
    for (let round = 0; round < options.rounds; round++) {
      const start = now()
      for (let f = 0; f < options.frames; f++) {
        // A tenth start a crossfade each frame's worth of instances, so fades are always running.
        const i = ((round * options.frames + f) * 97) % n
        crowd.play(i, f % 2 ? 'attack' : 'run', { crossfade: 0.3 })
        crowd.update(1 / 60, camera)
      }
      times.push((now() - start) / options.frames)
      drawn = crowd.count
    }
    rows.push([label, String(drawn), fmt(median(times), 2)])
  }
  crowd.dispose()
  return {
    title: 'Crowd update, CPU: 10,000 Ogros in one MD2Crowd',
    note: `ms of ${CLOCK === 'cpu' ? 'CPU time' : 'wall time'} per MD2Crowd.update (animation, per-instance culling, attribute writes), median of ${options.rounds} rounds × ${options.frames} frames; three's render call not included.`,
    head: ['camera', 'instances drawn', 'ms per frame'],
    rows,
    footer: [`Goal: under 2 ms for 10,000 instances → ${Number(rows[0]![2]) < 2 ? 'met' : 'MISSED'} (${rows[0]![2]} ms with all in view).`],
  }
}
