/**
 * A crowd drawn from its stored rows allocates nothing a frame: its time, its view's planes, the rows of the
 * instances told something, and `play` by name (as the model writes it) with options. In a file of its own: V8 boxes a
 * fraction read from an options object at a call site that has seen several shapes of them, and the other
 * crowd tests pass many; a game's calls have a shape or two.
 */
import { describe, expect, it } from 'vitest'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { followCrowd } from '../../src/three/crowd/followCrowd'
import { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import { bytesPerCall, settled } from '../support/alloc'
import { readAsset } from '../support/assets'
import { crowdCamera } from '../support/cameras'

const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2').slice(), { name: 'ogro/tris.MD2' })
const weapon = parseMD2(readAsset('quake2/ogro/weapon.md2').slice(), { name: 'ogro/weapon.md2' })
const written = (crowd: MD2Crowd) => (crowd as unknown as { rows: { storedWritten: number } }).rows.storedWritten

describe('a crowd drawn from stored rows', () => {
  it('a frame of 10,000 Ogros with synced weapons, 100 told to crossfade by name, the camera turning, allocates nothing', async () => {
    const crowd = new MD2Crowd(ogro, { limit: 10_000 })
    const weapons = new MD2Crowd(weapon, { limit: 10_000 })
    try {
      followCrowd(weapons, crowd)
      const fade = { crossfade: 0 }
      for (let i = 0; i < 10_000; i++) {
        crowd.setTransform(i, { position: [(i % 100) * 40 - 2000, 0, -Math.floor(i / 100) * 40], rotation: i * 0.1 })
        crowd.play(i, i % 2 ? 'run' : 'stand', fade)
      }
      fade.crossfade = 0.2
      const turning = crowdCamera()
      const names = ['attack', 'run', 'pain1', 'stand']
      let f = 0
      const frame = () => {
        f++
        for (let c = 0; c < 100; c++) crowd.play((f * 7919 + c * 613) % 10_000, names[(f + c) & 3]!, fade)
        // The view (and so the culling planes) changes every frame.
        turning.rotation.y = Math.sin(f * 0.01) * 0.3
        crowd.update(1 / 60, turning)
      }
      const perFrame = await settled(() => bytesPerCall(frame, 1, 20), frame)
      expect(perFrame).toBeLessThan(8)
      // Every instance in use drawn (the shaders cull), the rows of those told something written, in both crowds.
      expect([crowd.count, weapons.count]).toEqual([10_000, 10_000])
      expect([written(crowd), written(weapons)]).toEqual([100, 100])
      // Each culled by its own model's sphere.
      for (const inView of [crowd.inView, weapons.inView]) {
        expect(inView).toBeGreaterThan(0)
        expect(inView).toBeLessThan(10_000)
      }
    } finally {
      weapons.dispose()
      crowd.dispose()
    }
  })

  it('a frame of 10,000 Ogros lit as Quake II lit them (glowing), their weapons too, 100 told to play, allocates nothing', async () => {
    const lighting = { lighting: 'quake2', shadelight: [0.9, 0.7, 0.5], glow: true } as const
    const crowd = new MD2Crowd(ogro, { limit: 10_000, ...lighting })
    const weapons = new MD2Crowd(weapon, { limit: 10_000, ...lighting })
    try {
      followCrowd(weapons, crowd)
      for (let i = 0; i < 10_000; i++) {
        crowd.setTransform(i, { position: [(i % 100) * 40 - 2000, 0, -Math.floor(i / 100) * 40], rotation: i * 0.1 })
        crowd.play(i, i % 2 ? 'run' : 'stand')
      }
      const camera = crowdCamera()
      const names = ['attack', 'run', 'pain1', 'stand']
      let f = 0
      const frame = () => {
        f++
        for (let c = 0; c < 100; c++) crowd.play((f * 7919 + c * 613) % 10_000, names[(f + c) & 3]!)
        crowd.update(1 / 60, camera)
      }
      const perFrame = await settled(() => bytesPerCall(frame, 1, 20), frame)
      expect(perFrame).toBeLessThan(8)
      // Drawn from stored rows, both: the rows of those told something written, the light in them.
      expect([crowd.drawnFrom, weapons.drawnFrom]).toEqual(['stored', 'stored'])
      expect([written(crowd), written(weapons)]).toEqual([100, 100])
    } finally {
      weapons.dispose()
      crowd.dispose()
    }
  })
})
