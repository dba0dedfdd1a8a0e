/**
 * A frame of a crowd posed by the CPU for WebGLRenderer (a software renderer's, or `pose: "cpu"`) allocates nothing:
 * the poses in view placed in the atlas (shared where equal, blended where new, the normals packed), the rows saying
 * where, the rows in use flagged for upload. In a file of its own (as the other crowd allocation tests): V8 settles
 * on code for the shapes a file runs.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import type { CrowdRenderer } from '../../src/three/crowd/gpu/CrowdRenderer'
import { parseAsset } from '../support/assets'
import { crowdBytesPerFrame } from '../support/alloc'
import { crowdCamera } from '../support/cameras'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('the atlas of poses allocates nothing a frame', () => {
  it('a frame of 1,000 Ogros posed by the CPU, out of step (a pose each) and some crossfading, allocates nothing', async () => {
    const crowd = new MD2Crowd(parseAsset('quake2/ogro/tris.MD2', 'ogro'), { limit: 1000, pose: 'cpu', lighting: 'quake2' })
    const perFrame = await crowdBytesPerFrame(crowd, crowdCamera(), (i) => {
      crowd.play(i, i % 3 ? 'run' : 'stand', { speed: 0.5 + i / 1000 })
      if (i % 5 === 0) crowd.play(i, 'attack', { crossfade: 30 })
    })
    expect(perFrame).toBeLessThan(8)
    expect(crowd.drawnFrom).toBe('posed')
    expect((crowd as unknown as { renderer: CrowdRenderer }).renderer.state.atlas !== undefined).toBe(true)
    expect(crowd.count).toBe(crowd.inView)
    expect(crowd.count).toBeGreaterThan(100)
    crowd.dispose()
  })
})
