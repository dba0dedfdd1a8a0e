/**
 * `MD2CrowdBase`, the crowd without its looks (what `<MD2Instances>` makes in an app that imports no look): it
 * draws exactly the rows `MD2Crowd` draws, its look members and options refuse with an `MD2Error` naming the
 * import that brings them (never a `TypeError`), its queries load on demand (a raycast before then reports no
 * hits, warned once; pose bounds refuse), and following gives both crowds of a chain the posed rows.
 */
import { Box3, Raycaster, Vector3, type Intersection } from 'three'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { followCrowd } from '../../src/three/crowd/followCrowd'
import { INSTANCE_STRIDE, RANGE, ROW_POSED } from '../../src/three/crowd/gpu/instanceRows'
import { loadCrowdQueries, loadedCrowdQueries } from '../../src/three/crowd/loadCrowdQueries'
import { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import { MD2CrowdBase } from '../../src/three/crowd/MD2CrowdBase'
import { readAsset } from '../support/assets'
import { crowdCamera } from '../support/cameras'
import { expectMD2Error } from '../support/errors'

const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2').slice(), { name: 'ogro/tris.MD2' })
const weapon = parseMD2(readAsset('quake2/ogro/weapon.md2').slice(), { name: 'ogro/weapon.md2' })
const camera = crowdCamera()

afterEach(() => vi.restoreAllMocks())

/** Three ogros placed and played alike in `crowd`, one crossfading, moved on 0.3 s. */
function populate<C extends MD2CrowdBase>(crowd: C): C {
  for (let i = 0; i < 3; i++) {
    crowd.setTransform(i, { position: new Vector3(i * 40 - 40, -10, 0), rotation: i * 0.7 })
    crowd.play(i, i === 1 ? 'stand' : 'run')
  }
  crowd.update(0.2, camera)
  crowd.play(2, 'attack', { crossfade: 0.25 })
  crowd.update(0.1, camera)
  return crowd
}

/** A ray from the camera through instance 0's middle (the first ogro, at x = −40). */
const rayAtFirst = () => new Raycaster(camera.position.clone(), new Vector3(-40, -10, 0).sub(camera.position).normalize())

describe('MD2CrowdBase', () => {
  it('writes the same rows and matrices as MD2Crowd for the same instances', () => {
    const base = populate(new MD2CrowdBase(ogro, { limit: 4 }))
    const full = populate(new MD2Crowd(ogro, { limit: 4 }))
    expect(base.count).toBe(3)
    expect(base.count).toBe(full.count)
    const rows = (crowd: MD2CrowdBase) => [...(crowd.geometry.getAttribute('md2Clock') as { data: { array: Float32Array } }).data.array]
    expect(rows(base)).toEqual(rows(full))
    expect([...base.instanceMatrix.array]).toEqual([...full.instanceMatrix.array])
    // Stored rows: the shader poses them (no row is a pose worked out already).
    const data = rows(base)
    for (let i = 0; i < 3; i++) expect(data[i * INSTANCE_STRIDE + RANGE + 1]! & ROW_POSED).toBe(0)
    base.dispose()
    full.dispose()
  })

  it('refuses the look members and options with an MD2Error naming the import that brings them', () => {
    const crowd = new MD2CrowdBase(ogro, { limit: 2 })
    const text = /react-three-md2\/three.*MD2Shell/
    expectMD2Error(() => crowd.setShell(0, 'red'), 'UNSUPPORTED', { text })
    expectMD2Error(() => crowd.setShadow(0, 'blob'), 'UNSUPPORTED', { text })
    expectMD2Error(() => crowd.setLighting({ shadelight: 0.5 }), 'UNSUPPORTED', { text })
    expectMD2Error(() => crowd.setShadelight(1, [1, 0.5, 0.5]), 'UNSUPPORTED', { text })
    expectMD2Error(() => crowd.shell, 'UNSUPPORTED', { text: /MD2Crowd\.shell/ })
    expectMD2Error(() => crowd.shadow, 'UNSUPPORTED', { text: /MD2Crowd\.shadow/ })
    expectMD2Error(() => crowd.shadowFloor, 'UNSUPPORTED', { text: /shadowFloor/ })
    expectMD2Error(() => (crowd.shadowFloor = 0), 'UNSUPPORTED', { text: /shadowFloor/ })
    // The index is checked first, as on MD2Crowd.
    expectMD2Error(() => crowd.setShell(2, 'red'), 'BAD_ARGUMENT', { text: 'limit' })
    expectMD2Error(() => new MD2CrowdBase(ogro, { limit: 1, lighting: 'quake2' }), 'UNSUPPORTED', { text: /lighting: "quake2"/ })
    expectMD2Error(() => new MD2CrowdBase(ogro, { limit: 1, shell: 'red' }), 'UNSUPPORTED', { text: /shell needs/ })
    expectMD2Error(() => new MD2CrowdBase(ogro, { limit: 1, shadow: 'blob' }), 'UNSUPPORTED', { text: /shadow needs/ })
    // Nothing of a look is drawn: no layer among its children.
    expect(crowd.children).toEqual([])
    crowd.dispose()
  })

  it('loads its queries at the first one: until then a raycast hits nothing (warned once), pose bounds refuse', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const base = populate(new MD2CrowdBase(ogro, { limit: 4 }))
    const full = populate(new MD2Crowd(ogro, { limit: 4 }))
    base.updateMatrixWorld()
    full.updateMatrixWorld()
    // MD2Crowd has its queries from the start; this file has not loaded them for the base crowds yet.
    expect(loadedCrowdQueries()).toBeUndefined()
    const fullHits: Intersection[] = []
    full.raycast(rayAtFirst(), fullHits)
    expect(fullHits.length).toBeGreaterThan(0)
    expect(fullHits[0]!.instanceId).toBe(0)
    const early: Intersection[] = []
    base.raycast(rayAtFirst(), early)
    base.raycast(rayAtFirst(), early)
    expect(early).toEqual([])
    expect(warn).toHaveBeenCalledTimes(1)
    expect(String(warn.mock.calls[0]![0])).toMatch(
      /MD2Crowd\.raycast \(ogro\/tris\.MD2\).*loads on demand.*pointer handler.*No hits until it is in/,
    )
    expectMD2Error(() => base.getPoseBounds(0, new Box3()), 'UNSUPPORTED', { text: /getPoseBounds.*loading now/ })
    // The first raycast started the load: once in, the base answers as MD2Crowd does.
    await loadCrowdQueries()
    expect(loadedCrowdQueries()).toBeDefined()
    const hits: Intersection[] = []
    base.raycast(rayAtFirst(), hits)
    expect(hits.map((hit) => [hit.instanceId, hit.distance, hit.faceIndex])).toEqual(
      fullHits.map((hit) => [hit.instanceId, hit.distance, hit.faceIndex]),
    )
    expect(base.getPoseBounds(2, new Box3())).toEqual(full.getPoseBounds(2, new Box3()))
    base.dispose()
    full.dispose()
  })

  it("followCrowd: a synced weapon copies its leader's stored rows, those written only; an unsynced one its placements", () => {
    const leader = populate(new MD2CrowdBase(ogro, { limit: 4 }))
    const follower = new MD2CrowdBase(weapon, { limit: 4 })
    followCrowd(follower, leader)
    leader.update(1 / 60, camera)
    const data = (crowd: MD2CrowdBase) =>
      (crowd.geometry.getAttribute('md2Range') as unknown as { data: { array: Float32Array } }).data.array
    const flags = (crowd: MD2CrowdBase, k: number) => data(crowd)[k * INSTANCE_STRIDE + RANGE + 1]!
    const written = (crowd: MD2CrowdBase) => (crowd as unknown as { rows: { storedWritten: number } }).rows.storedWritten
    // The weapon has every frame the Ogro has: both drawn from stored rows, the weapon's its leader's (its own
    // light slot aside), its instances where the leader's are.
    expect(leader.count).toBe(3)
    expect(follower.count).toBe(3)
    for (let k = 0; k < 3; k++) {
      expect(flags(leader, k) & ROW_POSED).toBe(0)
      expect([...data(follower).subarray(k * INSTANCE_STRIDE, k * INSTANCE_STRIDE + 12)]).toEqual([
        ...data(leader).subarray(k * INSTANCE_STRIDE, k * INSTANCE_STRIDE + 12),
      ])
    }
    expect([...follower.instanceMatrix.array.subarray(0, 48)]).toEqual([...leader.instanceMatrix.array.subarray(0, 48)])
    // Nothing told: no row written by either. One instance told something: its row, in both.
    leader.update(1 / 60, camera)
    expect([written(leader), written(follower)]).toEqual([0, 0])
    leader.play(1, 'pain1', { crossfade: 0.2 })
    leader.hide(0)
    leader.update(1 / 60, camera)
    expect([written(leader), written(follower)]).toEqual([2, 2])
    expect([
      ...data(follower)
        .subarray(0, 3 * INSTANCE_STRIDE)
        .filter((_, e) => e % INSTANCE_STRIDE < 12),
    ]).toEqual([
      ...data(leader)
        .subarray(0, 3 * INSTANCE_STRIDE)
        .filter((_, e) => e % INSTANCE_STRIDE < 12),
    ])
    // Its CPU side (the pose its raycasts and bounds are of) as its leader's.
    const pose = (crowd: MD2CrowdBase, i: number) => {
      const clock = (crowd as unknown as { clock: { pose(i: number): number; poses: Float64Array } }).clock
      const o = clock.pose(i)
      return [...clock.poses.subarray(o, o + 7)]
    }
    for (let i = 0; i < 3; i++) expect(pose(follower, i)).toEqual(pose(leader, i))
    // Unsynced, its rows are its own animation's and its placements its leader's: both still on stored rows.
    followCrowd(follower, leader, { sync: false })
    follower.showFrame(1, 7)
    leader.update(1 / 60, camera)
    expect([leader.drawnFrom, follower.drawnFrom]).toEqual(['stored', 'stored'])
    expect(follower.count).toBe(leader.count)
    expect(pose(follower, 1).slice(0, 2)).toEqual([7, 7])
    expect(pose(leader, 1).slice(0, 2)).not.toEqual([7, 7])
    expect([...follower.instanceMatrix.array.subarray(0, 48)]).toEqual([...leader.instanceMatrix.array.subarray(0, 48)])
    // A leader's instance moved: that row of the follower's is written again with it, its own animation kept.
    leader.setTransform(2, { position: new Vector3(5, 0, 0) })
    leader.update(1 / 60, camera)
    expect([written(leader), written(follower)]).toEqual([1, 1])
    expect([...follower.instanceMatrix.array.subarray(32, 48)]).toEqual([...leader.instanceMatrix.array.subarray(32, 48)])
    expect(pose(follower, 1).slice(0, 2)).toEqual([7, 7])
    followCrowd(follower, null)
    expect(follower.count).toBe(0)
    leader.update(1 / 60, camera)
    for (let k = 0; k < 3; k++) expect(flags(leader, k) & ROW_POSED).toBe(0)
    follower.dispose()
    leader.dispose()
  })
})
