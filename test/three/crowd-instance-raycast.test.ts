/**
 * One instance's raycast (what an `<MD2Instance>` with pointer handlers does, as drei's `<Instance>`): it hits
 * that instance alone, against its pose as shown now, and the crowd's own raycast then leaves the instance
 * to it; the pose box it passes over instances by holds every pose drawn.
 */
import { Box3, Mesh, Object3D, Raycaster, Vector3, type Intersection } from 'three'
import { describe, expect, it } from 'vitest'
import { blendPoseYUp } from '../../src/core/animation/blendVertices'
import { readCrowdPose } from '../../src/core/animation/CrowdClock'
import { createPose, type MD2Pose } from '../../src/core/animation/pose'
import { findAnimation } from '../../src/core/format/animationTable'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { createMD2Geometry, getMD2RenderData } from '../../src/three/mesh/MD2Geometry'
import { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import { followCrowd } from '../../src/three/crowd/followCrowd'
import { readAsset } from '../support/assets'
import { crowdCamera } from '../support/cameras'

const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2').slice(), { name: 'ogro/tris.MD2' })
const weapon = parseMD2(readAsset('quake2/ogro/weapon.md2').slice(), { name: 'ogro/weapon.md2' })
const camera = crowdCamera()
const A = new Vector3(-40, 0, 0)
const B = new Vector3(40, 0, 0)

/** A crowd of two ogros, A and B, each reported by an object of its own (as two `<MD2Instance onClick>`). */
function twoInstances() {
  const crowd = new MD2Crowd(ogro, { limit: 4 })
  crowd.setTransform(0, { position: A })
  crowd.setTransform(1, { position: B })
  crowd.showFrame(0, 0)
  crowd.showFrame(1, 0)
  const objects = [0, 1].map((i) => {
    const object = new Object3D()
    object.raycast = (raycaster, intersects) => crowd.raycastInstance(i, raycaster, intersects, object)
    crowd.add(object)
    return object
  })
  crowd.update(0, camera)
  return { crowd, a: objects[0]!, b: objects[1]! }
}

/** A ray along −Z through (x, y) (in front of the ogros, which face +Z). */
function rayAt(x: number, y: number): Raycaster {
  const raycaster = new Raycaster()
  raycaster.set(new Vector3(x, y, 200), new Vector3(0, 0, -1))
  return raycaster
}

/** The first ray of a grid over instance A's pose box (x, then y from the top) that hits A. */
function rayThroughA(crowd: MD2Crowd, object: Object3D, above = -Infinity): { raycaster: Raycaster; hit: Intersection } {
  const box = crowd.getPoseBounds(0, new Box3())
  for (let y = box.max.y; y >= box.min.y; y -= 1)
    for (let x = box.min.x; x <= box.max.x; x += 1) {
      if (y <= above) continue
      const raycaster = rayAt(x, y)
      const hit = raycaster.intersectObject(object)[0]
      if (hit) return { raycaster, hit }
    }
  throw new Error('no ray over the pose box hits instance A')
}

describe("an instance's own raycast", () => {
  it('hits instance A where the crowd does, as its object, and never B; the crowd then leaves A to it', () => {
    const { crowd, a, b } = twoInstances()
    const raycaster = rayAt(A.x, 0)
    // Before A has an object of its own, the crowd reports it.
    const byCrowd = raycaster.intersectObject(crowd, false)
    expect(byCrowd.length).toBeGreaterThan(0)
    expect(byCrowd.every((hit) => hit.instanceId === 0 && hit.object === crowd)).toBe(true)
    const own = raycaster.intersectObject(a)
    expect(own.map((hit) => hit.distance)).toEqual(byCrowd.map((hit) => hit.distance))
    expect(own.every((hit) => hit.instanceId === 0 && hit.object === a)).toBe(true)
    expect(own[0]!.point.x).toBeCloseTo(A.x, -1)
    expect(raycaster.intersectObject(b)).toEqual([])
    // Once A's object reports it, the crowd's own raycast leaves A out, and a recursive one finds it once, as A's.
    crowd.setHitObject(0, a)
    crowd.setHitObject(1, b)
    expect(raycaster.intersectObject(crowd, false)).toEqual([])
    const all = raycaster.intersectObject(crowd, true)
    expect(all.map((hit) => hit.distance)).toEqual(own.map((hit) => hit.distance))
    expect(all.every((hit) => hit.object === a)).toBe(true)
    // And B's ray hits B alone.
    const atB = rayAt(B.x, 0)
    expect(atB.intersectObject(a)).toEqual([])
    expect(atB.intersectObject(b)[0]!.instanceId).toBe(1)
    // Given back, the crowd reports A again.
    crowd.setHitObject(0, null)
    expect(raycaster.intersectObject(crowd, false).map((hit) => hit.distance)).toEqual(own.map((hit) => hit.distance))
    crowd.dispose()
  })

  it('follows the pose drawn: a ray through the standing head misses once A is drawn lying dead, not before', () => {
    const { crowd, a } = twoInstances()
    const death = findAnimation(ogro, 'death1')!
    const last = death.end
    crowd.showFrame(0, last)
    crowd.update(0, camera)
    const lying = crowd.getPoseBounds(0, new Box3())
    crowd.showFrame(0, 0)
    crowd.update(0, camera)
    // A ray through the standing ogro above anything of the dead one.
    const { raycaster, hit } = rayThroughA(crowd, a, lying.max.y)
    expect(hit.object).toBe(a)
    expect(hit.point.y).toBeGreaterThan(lying.max.y)
    // Told to lie dead (as a click's handler does) and not drawn so yet: hit and bounded where it is drawn, standing.
    const standing = crowd.getPoseBounds(0, new Box3())
    crowd.showFrame(0, last)
    expect(raycaster.intersectObject(a).map((h) => h.distance)).toEqual([hit.distance])
    expect(crowd.getPoseBounds(0, new Box3())).toEqual(standing)
    crowd.play(0, 'death1', { loop: false })
    expect(raycaster.intersectObject(a).map((h) => h.distance)).toEqual([hit.distance])
    crowd.showFrame(0, last)
    crowd.update(0, camera)
    expect(raycaster.intersectObject(a)).toEqual([])
    expect(crowd.getPoseBounds(0, new Box3())).toEqual(lying)
    // And the dead ogro is hit where it lies.
    const low = rayThroughA(crowd, a)
    expect(low.hit.point.y).toBeLessThanOrEqual(lying.max.y + 1e-3)
    crowd.dispose()
  })

  it('hits every pose, crossfades too, where the whole pose, blended and met triangle by triangle, is hit', () => {
    const { crowd, a } = twoInstances()
    const death = findAnimation(ogro, 'death1')!
    const geometry = createMD2Geometry(ogro, { normals: false })
    // The reference: each pose written in full into a mesh of its own, without the pose box.
    geometry.boundingBox = null
    const reference = new Mesh(geometry, crowd.material)
    reference.position.copy(A)
    reference.updateMatrixWorld()
    const target = { xyzIndex: getMD2RenderData(ogro).layout.xyzIndex, positions: geometry.getAttribute('position').array as Float32Array }
    const poses: MD2Pose[] = [
      { ...createPose(0), from: 0, to: 1, t: 0.3 },
      { ...createPose(0), from: 45, to: 46, t: 0.7 },
      { ...createPose(0), from: death.end - 1, to: death.end, t: 0.5 },
      // Half-way from standing (the pose fading out) to lying dead: much of it above the dead pose's box.
      { from: death.end, to: death.end, t: 0, fadeFrom: 0, fadeTo: 1, fadeT: 0.5, fadeWeight: 0.5 },
    ]
    for (const pose of poses) {
      crowd.setPose(0, pose)
      crowd.update(0, camera)
      // As drawn: the row the GPU reads holds the pose in single floats.
      const drawn = readCrowdPose(crowd.clock.poses, 0, createPose(0))
      for (const key of ['t', 'fadeT', 'fadeWeight'] as const) drawn[key] = Math.fround(drawn[key])
      blendPoseYUp(ogro, drawn, target)
      geometry.boundingSphere = null
      let hits = 0
      for (let y = -28; y <= 32; y += 1.5)
        for (let x = A.x - 36; x <= A.x + 36; x += 1.5) {
          const raycaster = rayAt(x, y)
          const own = raycaster.intersectObject(a)
          const expected = raycaster.intersectObject(reference)
          expect(own.map((hit) => hit.distance)).toEqual(expected.map((hit) => hit.distance))
          hits += own.length > 0 ? 1 : 0
        }
      expect(hits).toBeGreaterThan(50)
    }
    geometry.dispose()
    crowd.dispose()
  })

  it("counts the weapon a follower crowd draws on A as A's, and the follower then leaves it to A's object", () => {
    const { crowd, a, b } = twoInstances()
    const armed = new MD2Crowd(weapon, { limit: 4 })
    followCrowd(armed, crowd)
    crowd.update(0, camera)
    // A ray through A's weapon that misses A's body (the weapon's box, scanned).
    const box = armed.getPoseBounds(0, new Box3())
    let through: Raycaster | undefined
    for (let y = box.max.y; y >= box.min.y && !through; y -= 0.5)
      for (let x = box.min.x; x <= box.max.x && !through; x += 0.5) {
        const raycaster = rayAt(x, y)
        if (raycaster.intersectObject(armed, false).length > 0 && raycaster.intersectObject(crowd, false).length === 0) through = raycaster
      }
    expect(through).toBeDefined()
    const byFollower = through!.intersectObject(armed, false)
    expect(byFollower.every((hit) => hit.object === armed && hit.instanceId === 0)).toBe(true)
    crowd.setHitObject(0, a)
    crowd.setHitObject(1, b)
    // A's object reports the weapon's hits as A's; the follower's own raycast leaves them out.
    const own = through!.intersectObject(a)
    expect(own.map((hit) => hit.distance)).toEqual(byFollower.map((hit) => hit.distance))
    expect(own.every((hit) => hit.object === a && hit.instanceId === 0)).toBe(true)
    expect(through!.intersectObject(armed, false)).toEqual([])
    expect(through!.intersectObject(b)).toEqual([])
    crowd.setHitObject(0, null)
    expect(through!.intersectObject(armed, false).length).toBe(byFollower.length)
    armed.dispose()
    crowd.dispose()
  })

  it('misses an instance hidden, out of view or never placed', () => {
    const { crowd, a } = twoInstances()
    const raycaster = rayAt(A.x, 0)
    expect(raycaster.intersectObject(a).length).toBeGreaterThan(0)
    crowd.hide(0)
    crowd.update(0, camera)
    expect(raycaster.intersectObject(a)).toEqual([])
    crowd.setTransform(0, { position: A })
    crowd.update(0, camera)
    expect(raycaster.intersectObject(a).length).toBeGreaterThan(0)
    // Culled: the camera looks away, so the instance is not drawn (nor hit).
    const away = crowdCamera()
    away.lookAt(0, 0, 400)
    away.updateMatrixWorld()
    crowd.update(0, away)
    expect(crowd.inView).toBe(0)
    expect(raycaster.intersectObject(a)).toEqual([])
    // Slot 3 was never placed.
    const unplaced = new Object3D()
    crowd.update(0, camera)
    raycaster.set(new Vector3(0, 0, 200), new Vector3(0, 0, -1))
    const hits: Intersection[] = []
    crowd.raycastInstance(3, raycaster, hits, unplaced)
    expect(hits).toEqual([])
    crowd.dispose()
  })
})
