import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createRef } from 'react'
import { Box3, type BufferGeometry, type Group, type Mesh } from 'three'
import { describe, expect, it } from 'vitest'
import { parseAnimationTable } from '../../src/core/format/animationTable'
import { createPose, type MD2Pose } from '../../src/core/animation/pose'
import { parseMD2 } from '../../src/core/format/parseMD2'
import type { MD2ModelData } from '../../src/core/format/types'
import { MD2Model } from '../../src/react/MD2Model'
import { MD2PoseBounds } from '../../src/react/looks/MD2PoseBounds'
import { poseBox } from '../../src/core/animation/blendVerticesBounded'
import { useMD2Animation } from '../../src/react/useMD2Animation'
import { createMD2Geometry, writeMD2Pose } from '../../src/three/mesh/MD2Geometry'
import { ASSETS_DIR, readAsset } from '../support/assets'
import { mount } from '../support/render'

const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2'), { name: 'ogro' })
const soldier = parseMD2(readAsset('ufoai/soldier-male/body.md2'), { name: 'soldier' })
const soldierTable = parseAnimationTable(readFileSync(join(ASSETS_DIR, 'ufoai/soldier-male/body.anm'), 'utf8'))

/** The box of the positions actually in the buffer: what is drawn. */
function drawnBox(geometry: BufferGeometry): Box3 {
  return new Box3().setFromBufferAttribute(geometry.getAttribute('position') as never)
}

function expectBoxesEqual(a: Box3, b: Box3, what: string): void {
  for (const axis of ['x', 'y', 'z'] as const) {
    expect(Math.abs(a.min[axis] - b.min[axis]), `${what}: min ${axis}`).toBeLessThan(1e-4)
    expect(Math.abs(a.max[axis] - b.max[axis]), `${what}: max ${axis}`).toBeLessThan(1e-4)
  }
}

/** Poses through an animation: its first keyframe, halfway to the next, and a crossfade from another animation. */
function posesOf(model: MD2ModelData, start: number, end: number): [string, MD2Pose][] {
  const last = model.header.numFrames - 1
  const next = Math.min(start + 1, end)
  const mid = Math.floor((start + end) / 2)
  const fade = {
    ...createPose(start),
    from: mid,
    to: Math.min(mid + 1, end),
    t: 0.3,
    fadeFrom: last,
    fadeTo: 0,
    fadeT: 0.6,
    fadeWeight: 0.4,
  }
  return [
    ['keyframe', createPose(start)],
    ['halfway', { ...createPose(start), to: next, t: 0.5 }],
    ['crossfading', fade],
  ]
}

describe('pose bounds', () => {
  it.each([
    ['ogro', ogro, ogro.animations],
    ['UFO:AI soldier', soldier, soldierTable],
  ] as const)('%s: for every animation, the pose box equals the box of the drawn positions (to 1e-4)', (_, model, animations) => {
    const geometry = createMD2Geometry(model)
    const framesBox = geometry.boundingBox!.clone()
    let checked = 0
    for (const animation of animations) {
      for (const [what, pose] of posesOf(model, animation.start, animation.end)) {
        writeMD2Pose(geometry, pose, { bounds: poseBox })
        expectBoxesEqual(geometry.boundingBox!, drawnBox(geometry), `${animation.name} ${what}`)
        expect(geometry.boundingSphere!.distanceToPoint(geometry.boundingBox!.max)).toBeLessThan(1e-4)
        checked++
      }
    }
    expect(checked).toBe(animations.length * 3)
    // Without pose bounds the geometry keeps the all-frames box.
    const plain = createMD2Geometry(model)
    writeMD2Pose(plain, posesOf(model, 0, 1)[1]![1])
    expectBoxesEqual(plain.boundingBox!, framesBox, 'all frames')
  })

  it('<MD2PoseBounds> in <MD2Model>: Box3.setFromObject reads the pose shown, a lying ogro is flat; without it, the all-frames box', async () => {
    const ref = createRef<Group>()
    const controller: { current: ReturnType<typeof useMD2Animation> | null } = { current: null }
    function Ogro({ bounds, frame }: { bounds: 'frames' | 'pose'; frame: number }) {
      const animation = useMD2Animation(ogro, { frame })
      controller.current = animation
      return (
        <MD2Model ref={ref} model={ogro} controller={animation} position={[10, 0, 0]}>
          {bounds === 'pose' && <MD2PoseBounds />}
        </MD2Model>
      )
    }
    const r = await mount(<Ogro bounds="pose" frame={0} />)
    await r.advanceFrames(2, 1 / 60)
    const mesh = () => ref.current!.children[0] as Mesh
    ref.current!.updateMatrixWorld(true)
    const standing = new Box3().setFromObject(mesh())
    expectBoxesEqual(standing, drawnBox(mesh().geometry).translate({ x: 10, y: 0, z: 0 } as never), 'standing, in the world')

    // The last death frame: lying on the ground.
    await r.update(<Ogro bounds="pose" frame={197} />)
    await r.advanceFrames(2, 1 / 60)
    ref.current!.updateMatrixWorld(true)
    const lying = new Box3().setFromObject(mesh())
    expectBoxesEqual(mesh().geometry.boundingBox!, drawnBox(mesh().geometry), 'lying')
    const height = (box: Box3) => box.max.y - box.min.y
    expect(height(lying)).toBeLessThan(height(standing) * 0.6)

    await r.update(<Ogro bounds="frames" frame={197} />)
    await r.advanceFrames(2, 1 / 60)
    const all = createMD2Geometry(ogro).boundingBox!
    expectBoxesEqual(mesh().geometry.boundingBox!, all, 'back to all frames')
    await r.unmount()
  })
})
