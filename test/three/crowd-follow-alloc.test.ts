/**
 * A frame of a body crowd with followers allocates nothing (`crowd-follow.test.ts` tests what they draw). In a
 * file of its own, as `crowd-stored-alloc.test.ts`: after that file's other tests (React mounts, other crowd
 * shapes) V8 was seen to settle, now and then, on code for this path that boxes numbers (640 bytes a frame,
 * flat); a game's frame sees the shapes it uses.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import { followCrowd } from '../../src/three/crowd/followCrowd'
import { crowdBytesPerFrame } from '../support/alloc'
import { crowdCamera } from '../support/cameras'
import { knight, knightWeapon } from '../support/followerModels'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('followers allocate nothing a frame', () => {
  const camera = crowdCamera()

  it('a frame of 1,000 running, crossfading bodies with synced weapons allocates nothing', async () => {
    const leader = new MD2Crowd(knight, { limit: 1000, lighting: 'quake2', glow: true })
    const weapon = new MD2Crowd(knightWeapon, { limit: 1000, lighting: 'quake2' })
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    followCrowd(weapon, leader)
    const perFrame = await crowdBytesPerFrame(leader, camera, (i) => {
      leader.play(i, i % 2 ? 'run' : 'death1')
      if (i % 3 === 0) leader.play(i, 'attack', { crossfade: 0.3 })
    })
    expect(perFrame).toBeLessThan(8)
    // The leader, lit as Quake II lit it, stays on its stored rows (every instance in use drawn, culled in its shader);
    // the weapon (fewer frames than the body: clamped) is posed, drawing those in view.
    expect(leader.drawnFrom).toBe('stored')
    expect(leader.count).toBe(1000)
    expect(weapon.count).toBe(leader.inView)
    expect(leader.inView).toBeGreaterThan(0)
    expect(leader.inView).toBeLessThan(1000)
    for (const crowd of [leader, weapon]) crowd.dispose()
  })
})
