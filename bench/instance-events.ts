/**
 * A pointer moving over 1,000 animated Ogros: the raycasting R3F does per pointer move, for pointer handlers
 * on every `<MD2Instance>` (each instance's own raycast: R3F casts against each object with handlers) and,
 * as the peer, for one handler on `<MD2Instances>` (the crowd's raycast over every instance drawn). Each
 * rejects an instance by its all-frames sphere, then by its pose's box, before posing it.
 */
import { Object3D, PerspectiveCamera, Raycaster, Vector2, Vector3, type Intersection } from 'three'
import { parseMD2 } from '../src/core/format/parseMD2'
import { MD2Crowd } from '../src/three/crowd/MD2Crowd'
import { OGRO, readArrayBuffer } from './lib/models'
import { type Table, CLOCK, fmt, median, now } from './lib/stats'

export function runInstanceEventsBench(options: { rounds: number; moves: number }): Table {
  const model = parseMD2(readArrayBuffer(OGRO), { name: 'tris.MD2' })
  const n = 1000
  const side = Math.ceil(Math.sqrt(n))
  const spacing = 60
  const place = (i: number, out: Vector3) => out.set(((i % side) - side / 2) * spacing, 0, (Math.floor(i / side) - side / 2) * spacing)
  // Two crowds alike: one whose instances report themselves (handlers on each), one as the crowd only.
  const crowds = [0, 1].map(() => new MD2Crowd(model, { limit: n }))
  const position = new Vector3()
  for (const crowd of crowds)
    for (let i = 0; i < n; i++) {
      crowd.setTransform(i, {
        position: position.set(((i % side) - side / 2) * spacing, 0, (Math.floor(i / side) - side / 2) * spacing),
        rotation: i,
      })
      crowd.play(i, i % 3 ? 'run' : 'stand')
    }
  const [perInstance, whole] = crowds as [MD2Crowd, MD2Crowd]
  const objects: Object3D[] = []
  for (let i = 0; i < n; i++) {
    const object = new Object3D()
    object.raycast = (raycaster, intersects) => perInstance.raycastInstance(i, raycaster, intersects, object)
    perInstance.add(object)
    perInstance.setHitObject(i, object)
    objects.push(object)
  }
  // A game's view over the whole field: every instance drawn.
  const camera = new PerspectiveCamera(50, 4 / 3, 1, 100_000)
  camera.position.set(0, side * spacing * 0.8, side * spacing * 1.1)
  camera.lookAt(0, 0, 0)
  camera.updateMatrixWorld()
  const raycaster = new Raycaster()
  const pointer = new Vector2()
  const hits: Intersection[] = []
  /** As R3F's `intersect`: each object with handlers cast against (recursively), the hits sorted by distance. */
  const castEach = (targets: readonly Object3D[]) => {
    hits.length = 0
    for (const target of targets) raycaster.intersectObject(target, true, hits)
    hits.sort((a, b) => a.distance - b.distance)
    return hits[0]?.instanceId ?? -1
  }
  const rows: (string | number)[][] = []
  const times = { perInstance: [] as number[], whole: [] as number[] }
  let agreeing = 0
  let hitMoves = 0
  let total = 0
  for (let round = 0; round < options.rounds; round++) {
    const elapsed = { perInstance: 0, whole: 0 }
    for (let m = 0; m < options.moves; m++) {
      // The crowds move on between pointer moves, as frames pass under a moving pointer.
      for (const crowd of crowds) crowd.update(1 / 60, camera)
      // Every other move over an instance's middle, the others sweeping the view over instances and the gaps.
      const k = round * options.moves + m
      if (k % 2 === 0) {
        const i = (k * 389) % n
        const p = place(i, position).setY(4).project(camera)
        pointer.set(p.x, p.y)
      } else {
        const s = k / (options.rounds * options.moves)
        pointer.set(Math.sin(s * 37) * 0.9, Math.cos(s * 23) * 0.7)
      }
      raycaster.setFromCamera(pointer, camera)
      let start = now()
      const first = castEach(objects)
      elapsed.perInstance += now() - start
      start = now()
      const peer = castEach([whole])
      elapsed.whole += now() - start
      total++
      if (first === peer) agreeing++
      if (first >= 0) hitMoves++
    }
    times.perInstance.push(elapsed.perInstance / options.moves)
    times.whole.push(elapsed.whole / options.moves)
  }
  rows.push(['1,000 <MD2Instance> with handlers (each its own raycast)', fmt(median(times.perInstance), 3)])
  rows.push(['<MD2Instances> with a handler (the crowd raycast)', fmt(median(times.whole), 3)])
  for (const crowd of crowds) crowd.dispose()
  return {
    title: 'Pointer events over 1,000 animated Ogros, CPU',
    note:
      `ms of ${CLOCK === 'cpu' ? 'CPU time' : 'wall time'} per pointer move (R3F's raycast: each object with handlers cast ` +
      `against, the hits sorted), median of ${options.rounds} rounds × ${options.moves} moves; ${perInstance.count} instances drawn, ` +
      `running or standing; the pointer was over an instance on ${hitMoves} of ${total} moves.`,
    head: ['handlers on', 'ms per move'],
    rows,
    footer: [`Both found the same nearest instance on ${agreeing} of ${total} moves.`],
  }
}
