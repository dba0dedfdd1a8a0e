/**
 * `ColliderFit` for a model drawn at a size of its own (a crowd's `height` and `origin`, which an `<MD2Instance>`'s
 * `<MD2Collider>` applies): the box in world units, refitted when the pose moves by the tolerance in the model's
 * units; and the README's physics block, the file the browser test plays.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Object3D, type Vector3Like } from 'three'
import { describe, expect, it, vi } from 'vitest'
import type { RapierCollider } from '@react-three/rapier'
import { createPose } from '../../../src/core/animation/pose'
import { fitStanding, getStandingBounds } from '../../../src/core/format/standingBounds'
import { blendedKeyframeBox } from '../../../src/react/rapier/blendedKeyframeBox'
import { ColliderFit } from '../../../src/react/rapier/ColliderFit'
import { checkDrawnSize } from '../../../src/react/rapier/MD2Collider'
import { parseAsset } from '../../support/assets'

const ogro = parseAsset('quake2/ogro/tris.MD2', 'ogro')

/** What a collider with no body was last given: its centre and half-extents. */
function fakeCollider() {
  const given = { centre: { x: 0, y: 0, z: 0 }, half: { x: 0, y: 0, z: 0 }, reshaped: 0 }
  const collider = {
    parent: () => null,
    setTranslation: (at: Vector3Like) => (given.centre = { ...at }),
    setRotation: () => undefined,
    setHalfExtents: (half: Vector3Like) => {
      given.half = { ...half }
      given.reshaped++
    },
  } as unknown as RapierCollider
  return { collider, given }
}

describe('ColliderFit with a height and origin of its own', () => {
  const standing = fitStanding(ogro, 1.7, 'feet')
  const stand = getStandingBounds(ogro).frame

  it('fits the standing frame 1.7 m tall, feet at the anchor', () => {
    const { collider, given } = fakeCollider()
    const anchor = new Object3D()
    anchor.position.set(2, 0, -1)
    new ColliderFit().update(collider, anchor, undefined, ogro, createPose(stand), 'cuboid', 1, standing)
    expect(given.half.y * 2).toBeCloseTo(1.7, 5)
    expect(given.centre.y - given.half.y).toBeCloseTo(0, 5)
    expect(given.centre.x).toBeCloseTo(2 + ((getStandingBounds(ogro).min[0] + getStandingBounds(ogro).max[0]) / 2) * standing.scale, 5)
  })

  it('refits when the pose moves by more than the tolerance in model units (not in metres)', () => {
    // Two keyframes of the stand whose boxes differ by a few model units, a few centimetres at 1.7 m.
    const run = ogro.animations.find((a) => a.name === 'stand')!
    const box = (f: number) => blendedKeyframeBox(ogro, createPose(f), new Float64Array(6))
    let other = -1
    for (let f = run.start + 1; f <= run.end && other < 0; f++) {
      const moved = Math.max(...[0, 1, 2, 3, 4, 5].map((k) => Math.abs(box(f)[k]! - box(run.start)[k]!)))
      if (moved > 2 && moved * standing.scale < 0.5) other = f
    }
    expect(other).toBeGreaterThan(0)
    const { collider, given } = fakeCollider()
    const fit = new ColliderFit()
    const anchor = new Object3D()
    fit.update(collider, anchor, undefined, ogro, createPose(run.start), 'cuboid', 1, standing)
    fit.update(collider, anchor, undefined, ogro, createPose(other), 'cuboid', 1, standing)
    expect(given.reshaped).toBe(2)
    const expected = box(other)
    expect(given.half.z * 2).toBeCloseTo((expected[5]! - expected[2]!) * standing.scale, 5)
  })
})

it("the README's physics block is examples/snippets/physics-crowd.tsx verbatim (played by test/browser/physics.test.tsx)", () => {
  const read = (file: string) => readFileSync(join(__dirname, '../../..', file), 'utf8')
  const readme = read('README.md')
  const section = readme.slice(readme.indexOf('## Physics with rapier')).split(/\n## /)[0]!
  expect(/```tsx\n([\s\S]*?)```/.exec(section)?.[1]).toBe(read('examples/snippets/physics-crowd.tsx'))
})

describe("<MD2Collider>'s check of its size in an <MD2Instance> (development builds)", () => {
  const instance = { model: ogro, control: { pose: createPose(0) }, height: 1.7, origin: 'feet' as const }

  it("warns once of a collider in the file's units in a crowd drawn 1.7 m tall (a `model` given, no `height`)", () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    checkDrawnSize(ogro, undefined, instance)
    checkDrawnSize(ogro, undefined, instance)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(String(warn.mock.calls[0]![0])).toMatch(/stands 5\d\.\d units tall where the instance is drawn 1\.70/)
    warn.mockRestore()
  })

  it("is quiet for the crowd's own size", () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    checkDrawnSize(ogro, fitStanding(ogro, 1.7, 'feet'), instance)
    checkDrawnSize(ogro, fitStanding(ogro, 2, 'feet'), instance)
    expect(warn).not.toHaveBeenCalled()
    warn.mockRestore()
  })
})
