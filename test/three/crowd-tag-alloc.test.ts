/**
 * A frame of a body crowd with tagged followers allocates nothing: a rifle on its tag placed by its shader (stored
 * rows, the leader's rows kept beside its own), a head posed on the CPU. In a file of its own (as
 * `crowd-follow-alloc.test.ts`): after another follower shape in the same file V8 was seen to settle on code for
 * this path that boxes numbers (80 bytes a frame, flat); a game's frame sees the shapes it uses.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import { followCrowd } from '../../src/three/crowd/followCrowd'
import { crowdBytesPerFrame } from '../support/alloc'
import { crowdCamera } from '../support/cameras'
import { head, knightWeapon, soldier, tags } from '../support/followerModels'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('tagged followers allocate nothing a frame', () => {
  const camera = crowdCamera()

  it('a frame of 1,000 bodies with a tagged weapon and a synced tagged head allocates nothing', async () => {
    const leader = new MD2Crowd(soldier, { limit: 1000 })
    leader.tags = tags
    const gun = new MD2Crowd(knightWeapon, { limit: 1000, lighting: 'quake2' })
    const heads = new MD2Crowd(head, { limit: 1000 })
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    followCrowd(gun, leader, { tag: 'tag_rweapon', sync: false })
    followCrowd(heads, leader, { tag: 'tag_head' })
    // On keyframes: between them the core's tagTransform renormalises its axes with Math.hypot, which
    // V8 allocates in (see the CHANGELOG); the follower's own path is the same either way.
    const perFrame = await crowdBytesPerFrame(leader, camera, (i) => leader.showFrame(i, (i * 7) % 1000))
    expect(perFrame).toBeLessThan(8)
    // The leader, on its stored rows, draws every instance in use and culls in its shader; so does the gun, placed on its
    // tag by its shader; the head (synced, with fewer frames than the body: clamped) is posed, drawing those in view.
    expect(leader.count).toBe(1000)
    expect([gun.drawnFrom, heads.drawnFrom]).toEqual(['stored', 'posed'])
    expect(gun.count).toBe(1000)
    expect(heads.count).toBe(leader.inView)
    expect(leader.inView).toBeGreaterThan(0)
    expect(leader.inView).toBeLessThan(1000)
    for (const crowd of [leader, gun, heads]) crowd.dispose()
  })
})
