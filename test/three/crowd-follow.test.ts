/**
 * Follower crowds (`MD2Crowd.follow`): a weapon or a head drawn on every instance of a body crowd. Each
 * follower instance must show what the CPU path shows for the same body pose (`<MD2Model sync>` for the
 * frames, clamped for a weapon with fewer frames; `<MD2Attach>` for the tag's placement), copy its
 * leader's hidden state and culling, and cost no allocation per frame.
 */
import { createElement, createRef, type ReactElement } from 'react'
import { BufferGeometry, Matrix4, Mesh, Quaternion, Vector3, type Group } from 'three'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { CROWD_POSE_STRIDE } from '../../src/core/animation/CrowdClock'
import { createPose, type MD2Pose } from '../../src/core/animation/pose'
import type { MD2ModelData } from '../../src/core/format/types'
import { MD2Attach } from '../../src/react/MD2Attach'
import { MD2Instance, MD2Instances } from '../../src/react/MD2Instances'
import { MD2Model } from '../../src/react/MD2Model'
import { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import { crowdParts } from '../../src/three/crowd/crowdParts'
import { followCrowd } from '../../src/three/crowd/followCrowd'
import { createMD2Geometry, writeMD2Pose } from '../../src/three/mesh/MD2Geometry'
import { parseAsset } from '../support/assets'
import { crowdCamera } from '../support/cameras'
import { head, knight, knightWeapon, soldier, tags } from '../support/followerModels'
import { expectMD2Error } from '../support/errors'
import { mount } from '../support/render'

afterEach(() => {
  vi.restoreAllMocks()
})

const pose = (from: number, to: number, t: number, fade?: [number, number, number, number]): MD2Pose => ({
  from,
  to,
  t,
  fadeFrom: fade?.[0] ?? 0,
  fadeTo: fade?.[1] ?? 0,
  fadeT: fade?.[2] ?? 0,
  fadeWeight: fade?.[3] ?? 0,
})

/** Slot `k` of crowd `a` holds the same instance matrix as slot `k` of crowd `b`. */
/**
 * Drawn slot `k`'s matrix as drawn: its instance matrix, times its tag's placement where the shader places it on its
 * tag (then the instance matrix is its leader instance's), as the queries see it.
 */
function placedAt(crowd: MD2Crowd, k: number, target = new Matrix4()): Matrix4 {
  crowd.getMatrixAt(k, target)
  crowdParts.get(crowd)?.link?.tagOnto(crowd.instanceAt(k), target)
  return target
}

/** The same placement (single floats where the CPU placed it, doubles where the queries compose the shader's). */
function expectSameMatrixAt(k: number, a: MD2Crowd, b: MD2Crowd): void {
  expectMatricesClose(placedAt(a, k), placedAt(b, k), 1e-5)
}

/** Knight poses: within the weapon's 173 frames, across its end, past it, and crossfades on both sides. */
const KNIGHT_POSES: MD2Pose[] = [
  pose(10, 11, 0.3),
  pose(171, 172, 0.5),
  pose(172, 173, 0.25),
  pose(180, 181, 0.75),
  pose(190, 191, 0.5, [5, 6, 0.5, 0.4]),
  pose(20, 21, 0.5, [185, 186, 0.25, 0.7]),
]

/** Soldier poses from several animations of body.anm's range, with a crossfade. */
const SOLDIER_POSES: MD2Pose[] = [pose(0, 0, 0), pose(130, 131, 0.4), pose(600, 601, 0.8, [40, 41, 0.5, 0.35]), pose(1006, 1006, 0)]

/** Instance placements: position, yaw, scale. */
const PLACES: [Vector3, number, number][] = [
  [new Vector3(-40, 0, 0), 0.3, 0.5],
  [new Vector3(0, 5, -20), 2.2, 1],
  [new Vector3(30, -4, 10), -1.1, 0.75],
  [new Vector3(60, 0, 0), -2.7, 1.25],
  [new Vector3(-70, 2, -5), 1.4, 0.6],
  [new Vector3(10, 0, 40), 0, 0.9],
]

/** A follower instance's vertices for its pose, as the CPU kernel writes them. */
function positionsOf(crowd: MD2Crowd, i: number): Float32Array {
  const p = crowd.clock.poses
  const s = i * CROWD_POSE_STRIDE
  const shown = createPose(0)
  Object.assign(shown, {
    from: p[s],
    to: p[s + 1],
    t: p[s + 2],
    fadeWeight: p[s + 3],
    fadeFrom: p[s + 4],
    fadeTo: p[s + 5],
    fadeT: p[s + 6],
  })
  const geometry = createMD2Geometry(crowd.model)
  writeMD2Pose(geometry, shown)
  const out = Float32Array.from(geometry.getAttribute('position').array)
  geometry.dispose()
  return out
}

/** The drawn slot of instance `i`, or −1. */
function slotOf(crowd: MD2Crowd, i: number): number {
  for (let k = 0; k < crowd.count; k++) if (crowd.instanceAt(k) === i) return k
  return -1
}

/** What `<MD2Model>` draws for a child of a body posed by `bodyPose`, placed as instance `place`. */
async function cpuChild(
  body: MD2ModelData,
  child: (ref: React.Ref<Group>) => ReactElement,
  bodyPose: MD2Pose,
  place: [Vector3, number, number],
  bodyTags?: typeof tags,
): Promise<{ positions: Float32Array; world: Matrix4 }> {
  const ref = createRef<Group>()
  const [position, yaw, scale] = place
  const r = await mount(
    createElement(
      MD2Model,
      { model: body, tags: bodyTags, controller: { pose: bodyPose }, position: position.toArray(), rotation: [0, yaw, 0], scale },
      child(ref),
    ),
  )
  await r.advanceFrames(1, 0)
  const mesh = ref.current!.children[0] as Mesh
  mesh.updateWorldMatrix(true, false)
  const positions = Float32Array.from((mesh.geometry as BufferGeometry).getAttribute('position').array)
  const world = mesh.matrixWorld.clone()
  await r.unmount()
  return { positions, world }
}

function leaderOf(body: MD2ModelData, poses: MD2Pose[], options: { tags?: typeof tags } = {}): MD2Crowd {
  const leader = new MD2Crowd(body, { limit: poses.length, maxTextureSize: 4096 })
  leader.tags = options.tags
  poses.forEach((p, i) => {
    const [position, yaw, scale] = PLACES[i]!
    leader.setTransform(i, { position, rotation: yaw, scale })
    leader.setPose(i, p)
  })
  return leader
}

function expectMatricesClose(actual: Matrix4, expected: Matrix4, tolerance: number): void {
  actual.elements.forEach((value, e) => expect(Math.abs(value - expected.elements[e]!), `element ${e}`).toBeLessThan(tolerance))
}

describe('a synced follower crowd', () => {
  it("shows, per instance, the frames <MD2Model sync> shows for the same body pose, a weapon's missing frames clamped to its last", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const leader = leaderOf(knight, KNIGHT_POSES)
    const weapon = new MD2Crowd(knightWeapon, { limit: KNIGHT_POSES.length, maxTextureSize: 4096 })
    followCrowd(weapon, leader)
    leader.update(0)
    expect(weapon.count).toBe(KNIGHT_POSES.length)
    // Read by component, whatever the attribute's layout (plain or interleaved).
    const frames = weapon.geometry.getAttribute('md2Clock')
    let clamped = 0
    for (let i = 0; i < KNIGHT_POSES.length; i++) {
      const cpu = await cpuChild(
        knight,
        (ref) => createElement(MD2Model, { ref, model: knightWeapon, sync: true }),
        KNIGHT_POSES[i]!,
        PLACES[i]!,
      )
      // The vertices the CPU path writes for the weapon, bit for bit.
      expect(positionsOf(weapon, i)).toEqual(cpu.positions)
      // What reaches the GPU: the clamped keyframes (a posed row: from, to) in the instance's slot.
      const k = slotOf(weapon, i)
      const p = weapon.clock.poses
      expect([frames.getX(k), frames.getY(k)]).toEqual([p[i * CROWD_POSE_STRIDE], p[i * CROWD_POSE_STRIDE + 1]])
      expect(Math.max(frames.getX(k), frames.getY(k))).toBeLessThanOrEqual(knightWeapon.header.numFrames - 1)
      if (KNIGHT_POSES[i]!.to > 172 || KNIGHT_POSES[i]!.fadeFrom > 172) clamped++
      // Placed exactly as its body instance (the leader's transform, the leader's slot).
      expect(weapon.instanceAt(k)).toBe(leader.instanceAt(k))
      expectSameMatrixAt(k, weapon, leader)
    }
    expect(clamped).toBeGreaterThan(2)
    leader.dispose()
    weapon.dispose()
  })

  it('warns once, naming the frames, when the leader shows frames the follower lacks', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    // Its own name: warnings are once per model name for the life of the process.
    const weaponModel = parseAsset('quake2/pknight/weapon.md2', 'pknight/weapon-warned.md2')
    const leader = leaderOf(knight, [pose(10, 11, 0.5), pose(10, 11, 0.5)])
    const weapon = new MD2Crowd(weaponModel, { limit: 2 })
    followCrowd(weapon, leader)
    for (let f = 0; f < 5; f++) leader.update(0.05)
    expect(warn.mock.calls.filter(([m]) => String(m).includes('weapon-warned.md2 has 173 frames'))).toHaveLength(0)
    leader.play(1, 'death1') // 178–183 on a 198-frame player
    for (let f = 0; f < 5; f++) leader.update(0.05)
    expect(warn.mock.calls.filter(([m]) => String(m).includes('weapon-warned.md2 has 173 frames'))).toHaveLength(1)
    expect(weapon.clock.poses[CROWD_POSE_STRIDE + 1]).toBe(172)
    leader.dispose()
    weapon.dispose()
  })

  it('follows the animation in the same update, with no frame of lag', () => {
    const leader = leaderOf(knight, [pose(0, 0, 0)])
    const weapon = new MD2Crowd(knightWeapon, { limit: 1 })
    followCrowd(weapon, leader)
    leader.play(0, 'run')
    for (let f = 0; f < 7; f++) {
      leader.update(1 / 30)
      // A follower's own update does nothing: its leader's draws it.
      weapon.update(1)
      const s = 0
      expect(Array.from(weapon.clock.poses.subarray(s, s + 7))).toEqual(Array.from(leader.clock.poses.subarray(s, s + 7)))
    }
    leader.dispose()
    weapon.dispose()
  })
})

describe('a tagged follower crowd', () => {
  it.each([
    ['synced (fewer frames than the body: posed, placed here)', true],
    ['unsynced (on stored rows: placed on the tag by its shader)', false],
  ])('places each head where <MD2Attach tag="tag_head"> places it for the same body pose and placement, %s', async (_, sync) => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const leader = leaderOf(soldier, SOLDIER_POSES, { tags })
    const heads = new MD2Crowd(head, { limit: SOLDIER_POSES.length })
    followCrowd(heads, leader, { tag: 'tag_head', sync })
    expect(heads.parent).toBe(leader)
    leader.update(0)
    expect(heads.drawnFrom).toBe(sync ? 'posed' : 'stored')
    expect(heads.count).toBe(SOLDIER_POSES.length)
    const world = new Matrix4()
    const instance = new Matrix4()
    let moved = 0
    for (let i = 0; i < SOLDIER_POSES.length; i++) {
      const cpu = await cpuChild(
        soldier,
        (ref) => createElement(MD2Attach, { tag: 'tag_head' }, createElement(MD2Model, { ref, model: head, sync: true })),
        SOLDIER_POSES[i]!,
        PLACES[i]!,
        tags,
      )
      const k = slotOf(heads, i)
      placedAt(heads, k, instance)
      heads.updateWorldMatrix(true, false)
      world.multiplyMatrices(heads.matrixWorld, instance)
      expectMatricesClose(world, cpu.world, 1e-4)
      expect(positionsOf(heads, i)).toEqual(cpu.positions)
      // Not the body's own matrix: the tag really moves it.
      const body = new Matrix4()
      leader.getMatrixAt(k, body)
      if (new Vector3().setFromMatrixPosition(body).distanceTo(new Vector3().setFromMatrixPosition(world)) > 10) moved++
    }
    expect(moved).toBeGreaterThan(0)
    leader.dispose()
    heads.dispose()
  })

  it('takes the tags from the options, a tag by index, and without sync keeps its own animation', () => {
    const leader = leaderOf(knight, [pose(3, 4, 0.5)])
    const gun = new MD2Crowd(knightWeapon, { limit: 1 })
    const byName = new MD2Crowd(knightWeapon, { limit: 1 })
    const rweapon = tags.names.indexOf('tag_rweapon')
    expect(rweapon).toBeGreaterThanOrEqual(0)
    vi.spyOn(console, 'warn').mockImplementation(() => {}) // the soldier's tags on a knight: frame counts differ
    followCrowd(gun, leader, { tags, tag: rweapon, sync: false })
    followCrowd(byName, leader, { tags, tag: 'tag_rweapon' })
    gun.showFrame(0, 100)
    leader.update(0)
    expectSameMatrixAt(0, gun, byName)
    expect(gun.clock.poses[0]).toBe(100)
    expect(byName.clock.poses[0]).toBe(3)
    for (const crowd of [leader, gun, byName]) crowd.dispose()
  })
})

describe('hidden instances and culling', () => {
  const camera = crowdCamera()

  it("a follower draws exactly its leader's drawn instances: hidden ones and culled ones are left out, shown ones come back", () => {
    const leader = new MD2Crowd(knight, { limit: 6 })
    const weapon = new MD2Crowd(knightWeapon, { limit: 6 })
    followCrowd(weapon, leader)
    const xs = [-60, 5000, 0, -5000, 60, 30]
    xs.forEach((x, i) => {
      leader.setTransform(i, { position: new Vector3(x, 0, 0) })
      leader.play(i, i % 2 ? 'run' : 'stand')
    })
    // In view: the leader (on its stored rows, culled in its shader) lists them when asked; the follower draws those.
    const drawn = (crowd: MD2Crowd) => Array.from({ length: crowd.inView }, (_, k) => crowd.instanceAt(k))
    leader.update(0.05, camera)
    expect(drawn(leader)).toEqual([0, 2, 4, 5])
    expect(drawn(weapon)).toEqual(drawn(leader))
    leader.hide(2)
    leader.update(0.05, camera)
    expect(drawn(weapon)).toEqual([0, 4, 5])
    // The follower's uploads cover the instances it draws only.
    expect(weapon.instanceMatrix.updateRanges).toEqual([{ start: 0, count: 3 * 16 }])
    expect(weapon.count).toBe(3)
    leader.setTransform(2, { position: new Vector3(0, 0, 0) })
    leader.setTransform(1, { position: new Vector3(-20, 0, 0) })
    leader.update(0.05, camera)
    expect(drawn(weapon)).toEqual([0, 1, 2, 4, 5])
    // Without a camera, nothing is culled, for either.
    leader.update(0.05)
    expect(drawn(weapon)).toEqual([0, 1, 2, 3, 4, 5])
    // A follower's placement and hiding are its leader's: its own calls warn and change nothing.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    weapon.hide(0)
    weapon.setTransform(0, { position: new Vector3(1000, 0, 0) })
    leader.update(0.05)
    expect(drawn(weapon)).toEqual([0, 1, 2, 3, 4, 5])
    expect(warn.mock.calls.length).toBeGreaterThanOrEqual(1)
    // Stopping: the follower draws nothing more and leaves the leader.
    followCrowd(weapon, null)
    expect(weapon.count).toBe(0)
    expect(weapon.parent).toBeNull()
    leader.update(0.05)
    expect(weapon.count).toBe(0)
    leader.dispose()
    weapon.dispose()
  })
})

describe('bad follow requests', () => {
  it('refuses following itself, a cycle, a larger leader and a tag without tags; warns once for an unknown tag', () => {
    const a = new MD2Crowd(knight, { limit: 4 })
    const b = new MD2Crowd(knightWeapon, { limit: 4 })
    const small = new MD2Crowd(knightWeapon, { limit: 2 })
    expectMD2Error(() => followCrowd(a, a), 'BAD_ARGUMENT', { text: 'itself' })
    followCrowd(b, a)
    expectMD2Error(() => followCrowd(a, b), 'BAD_ARGUMENT', { text: 'follows it' })
    expectMD2Error(() => followCrowd(small, a), 'BAD_ARGUMENT', { text: 'at least 4' })
    expectMD2Error(() => followCrowd(small, b, { tag: 'tag_head' }), 'BAD_ARGUMENT')
    const c = new MD2Crowd(knightWeapon, { limit: 4 })
    expectMD2Error(() => followCrowd(c, a, { tag: 'tag_head' }), 'BAD_ARGUMENT', { text: 'needs tags' })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    followCrowd(c, a, { tags, tag: 'tag_tail' })
    followCrowd(c, a, { tags, tag: 'tag_tail' })
    expect(warn.mock.calls.filter(([m]) => String(m).includes('"tag_tail"'))).toHaveLength(1)
    expect(String(warn.mock.calls[0]![0])).toContain('tag_head')
    // Placed at the leader's origin: the leader's own matrix.
    a.setTransform(0, { position: new Vector3(5, 6, 7), rotation: new Quaternion().setFromAxisAngle(new Vector3(0, 1, 0), 1) })
    a.update(0)
    expectSameMatrixAt(0, c, a)
    // Disposing the leader stops its followers.
    a.dispose()
    expect(b.leader).toBeUndefined()
    expect(c.count).toBe(0)
    for (const crowd of [b, small, c]) crowd.dispose()
  })
})

describe('<MD2Instances sync> and tag inside <MD2Instances>', () => {
  it('make follower crowds of their parent, drawn on its instances in the same frame', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const body = createRef<MD2Crowd>()
    const weapon = createRef<MD2Crowd>()
    const heads = createRef<MD2Crowd>()
    const r = await mount(
      createElement(
        MD2Instances,
        { ref: body, model: soldier, tags, limit: 8 },
        createElement(MD2Instance, { frame: 130, position: [-20, 0, 0] }),
        createElement(MD2Instance, { frame: 600.5, position: [20, 0, 0], rotation: [0, 1, 0] }),
        createElement(MD2Instances, { ref: weapon, model: knightWeapon, sync: true, limit: 3 }),
        createElement(MD2Instances, { ref: heads, model: head, tag: 'tag_head' }),
      ),
    )
    await r.advanceFrames(1, 0)
    const follower = weapon.current!
    expect(follower.leader).toBe(body.current)
    expect(heads.current!.leader).toBe(body.current)
    // The leader's limit, whatever the follower's prop says (warned).
    expect(weapon.current!.capacity).toBe(8)
    expect(body.current!.count).toBe(2)
    expect(weapon.current!.count).toBe(2)
    expect(heads.current!.count).toBe(2)
    const p = weapon.current!.clock.poses
    expect([p[0], p[CROWD_POSE_STRIDE]]).toEqual([130, 172])
    // Not synced: the head shows its own (only) frame.
    expect(heads.current!.clock.poses[CROWD_POSE_STRIDE]).toBe(0)
    const headMatrix = placedAt(heads.current!, 1)
    expect(new Vector3().setFromMatrixPosition(headMatrix).y).toBeGreaterThan(10)
    await r.unmount()
    expect(follower.leader).toBeUndefined()
  })
})
