/**
 * What `<MD2Collider>` fits (react-three-md2/rapier): the pose's box from its keyframes' boxes, checked against what
 * the CPU path draws on the real ogro; its capsule's steady feet and width; and its bad props, refused by name.
 */
import { Box3, type BufferAttribute } from 'three'
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { createPose } from '../../../src/core/animation/pose'
import { getStandingBounds } from '../../../src/core/format/standingBounds'
import { createMD2Geometry, writeMD2Pose } from '../../../src/three/mesh/MD2Geometry'
import { blendedKeyframeBox, uprightBox } from '../../../src/react/rapier/blendedKeyframeBox'
import { MD2Collider } from '../../../src/react/rapier/MD2Collider'
import { MD2Model } from '../../../src/react/MD2Model'
import { parseAsset } from '../../support/assets'
import { mount } from '../../support/render'

const ogro = parseAsset('quake2/ogro/tris.MD2', 'ogro')
const frames = ogro.header.numFrames
const geometry = createMD2Geometry(ogro)
const pose = createPose(0)
const out = new Float64Array(6)

/** The box of what the CPU path draws for `pose`. */
function drawn(): Box3 {
  writeMD2Pose(geometry, pose)
  return new Box3().setFromBufferAttribute(geometry.getAttribute('position') as BufferAttribute)
}

describe('the pose box', () => {
  it('equals the drawn box on every keyframe of the ogro', () => {
    for (let f = 0; f < frames; f++) {
      Object.assign(pose, createPose(f))
      const box = drawn()
      blendedKeyframeBox(ogro, pose, out)
      expect([...out].map((v) => Math.round(v * 1000) / 1000)).toEqual(
        [box.min.x, box.min.y, box.min.z, box.max.x, box.max.y, box.max.z].map((v) => Math.round(v * 1000) / 1000),
      )
    }
  })

  it('holds the drawn box of any blend and crossfade', () => {
    const frame = fc.integer({ min: 0, max: frames - 1 })
    const unit = fc.double({ min: 0, max: 1, noNaN: true })
    fc.assert(
      fc.property(
        frame,
        frame,
        unit,
        frame,
        frame,
        unit,
        fc.oneof(fc.constant(0), unit),
        (from, to, t, fadeFrom, fadeTo, fadeT, fadeWeight) => {
          Object.assign(pose, { from, to, t, fadeFrom, fadeTo, fadeT, fadeWeight })
          const box = drawn()
          blendedKeyframeBox(ogro, pose, out)
          const slack = 1e-3
          expect(out[0]).toBeLessThanOrEqual(box.min.x + slack)
          expect(out[1]).toBeLessThanOrEqual(box.min.y + slack)
          expect(out[2]).toBeLessThanOrEqual(box.min.z + slack)
          expect(out[3]).toBeGreaterThanOrEqual(box.max.x - slack)
          expect(out[4]).toBeGreaterThanOrEqual(box.max.y - slack)
          expect(out[5]).toBeGreaterThanOrEqual(box.max.z - slack)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('the death pose lies low: its top under half the standing top, as a shot enemy falls', () => {
    const death = ogro.animations.find((a) => a.name === 'death1')!
    Object.assign(pose, createPose(death.start))
    const standing = blendedKeyframeBox(ogro, pose, new Float64Array(6))[4]!
    Object.assign(pose, createPose(death.end))
    const lying = blendedKeyframeBox(ogro, pose, out)[4]!
    expect(lying - out[1]!).toBeLessThan((standing - out[1]!) / 2)
  })

  it("the capsule's box: feet and width the standing frame's whatever the pose, top the pose's", () => {
    const { min, max } = getStandingBounds(ogro)
    const radius = (max[0] - min[0] + max[2] - min[2]) / 4
    for (const name of ['run', 'crdeath', 'jump']) {
      const animation = ogro.animations.find((a) => a.name === name)!
      Object.assign(pose, createPose(animation.end))
      const top = blendedKeyframeBox(ogro, pose, out)[4]
      uprightBox(ogro, out)
      expect([out[0], out[1], out[2], out[3], out[4], out[5]]).toEqual([-radius, min[1], -radius, radius, top, radius])
    }
  })
})

describe('<MD2Collider> bad props', () => {
  it('outside a model and without `model`: an MD2Error naming what it needs', async () => {
    await expect(mount(<MD2Collider />)).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      message: expect.stringContaining('`model` and `readout`'),
    })
  })

  it.each([
    [{ shape: 'ball' as never }, 'shape="ball"'],
    [{ tolerance: -1 }, 'tolerance={-1}'],
    [{ tolerance: Number.NaN }, 'tolerance={NaN}'],
  ])('%o: an MD2Error naming the prop and value', async (props, named) => {
    await expect(
      mount(
        <MD2Model model={ogro}>
          <MD2Collider {...props} />
        </MD2Model>,
      ),
    ).rejects.toMatchObject({ code: 'BAD_ARGUMENT', message: expect.stringContaining(named) })
  })
})
