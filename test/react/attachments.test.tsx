import { useFrame } from '@react-three/fiber'
import { createRef } from 'react'
import { Matrix4, Vector3, type BufferGeometry, type Group, type Mesh } from 'three'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { parseAnimationTable, parseMD2, type MD2ModelData } from '../../src/core'
import type { MD2AnimationController } from '../../src/core/animation/MD2AnimationController'
import { createPose, type MD2Pose } from '../../src/core/animation/pose'
import { findTag, parseMD2Tags } from '../../src/core/tags/parseMD2Tags'
import { tagTransform } from '../../src/core/tags/tagTransform'
import { MD2Attach } from '../../src/react/MD2Attach'
import { MD2Model, type MD2ModelProps } from '../../src/react/MD2Model'
import { useMD2Tags } from '../../src/react/loading/useMD2Tags'
import { setTagMatrix } from '../../src/three/mesh/tagMatrix'
import { readAsset } from '../support/assets'
import { mount } from '../support/render'
import { HOST, serveAssets } from '../support/serve'

const SOLDIER = 'ufoai/soldier-male/'
const body = parseMD2(readAsset(`${SOLDIER}body.md2`), { name: 'body.md2' })
const head = parseMD2(readAsset(`${SOLDIER}head01.md2`), { name: 'head01.md2' })
const tags = parseMD2Tags(readAsset(`${SOLDIER}body.tag`), { name: 'body.tag' })
const table = parseAnimationTable(new TextDecoder().decode(readAsset(`${SOLDIER}body.anm`)), 'body.anm')
const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2'), { name: 'ogro/tris.MD2' })
const railgun = parseMD2(readAsset('quake2/ogro/w_railgun.MD2'), { name: 'ogro/w_railgun.MD2' })

afterEach(() => {
  vi.restoreAllMocks()
  useMD2Tags.clear()
})

const meshOf = (group: Group) => group.children[0] as Mesh

/** A mesh's vertices as drawn: its position buffer through its world matrix. */
function worldPositions(mesh: Mesh): Vector3[] {
  mesh.updateWorldMatrix(true, false)
  const positions = (mesh.geometry as BufferGeometry).getAttribute('position')
  return Array.from({ length: positions.count }, (_, i) => new Vector3().fromBufferAttribute(positions, i).applyMatrix4(mesh.matrixWorld))
}

function nearestDistance(point: Vector3, cloud: Vector3[]): number {
  let best = Infinity
  for (const p of cloud) best = Math.min(best, p.distanceToSquared(point))
  return Math.sqrt(best)
}

function centroid(points: Vector3[]): Vector3 {
  return points.reduce((sum, p) => sum.add(p), new Vector3()).divideScalar(points.length)
}

describe('<MD2Attach> on the UFO:AI soldier', () => {
  // Three frames of each animation in body.anm: first, middle, last.
  const frames = [...new Set(table.flatMap((a) => [a.start, Math.floor((a.start + a.end) / 2), a.end]))].filter(
    (f) => f < body.header.numFrames,
  )
  // The head's neck: its lowest vertices (Y-up in the geometry), and its crown: the highest.
  const headHeights = (() => {
    const positions = parseMD2(readAsset(`${SOLDIER}head01.md2`)).frames[0]!
    const z = Array.from(
      { length: head.header.numVertices },
      (_, i) => positions.vertices[i * 4 + 2]! * positions.scale[2] + positions.translate[2],
    )
    return { min: Math.min(...z), max: Math.max(...z) }
  })()

  it("draws the head on the body's neck, upright along the spine, in the frames of every animation", async () => {
    const bodyRef = createRef<Group>()
    const headRef = createRef<Group>()
    const scene = (frame: number) => (
      <MD2Model ref={bodyRef} model={body} tags={tags} frame={frame} position={[5, 0, -3]} rotation={[0, 0.7, 0]} scale={0.5}>
        <MD2Attach tag="tag_head">
          <MD2Model ref={headRef} model={head} />
        </MD2Attach>
      </MD2Model>
    )
    const r = await mount(scene(frames[0]!))
    let worstNeck = 0
    let upright = 0
    for (const frame of frames) {
      await r.update(scene(frame))
      await r.advanceFrames(1, 0)
      const bodyPoints = worldPositions(meshOf(bodyRef.current!))
      const headMesh = meshOf(headRef.current!)
      const local = (headMesh.geometry as BufferGeometry).getAttribute('position')
      const headPoints = worldPositions(headMesh)
      const neck = headPoints.filter((_, i) => local.getY(i) < headHeights.min + 1)
      const crown = headPoints.filter((_, i) => local.getY(i) > headHeights.max - 1)
      expect(neck.length).toBeGreaterThan(10)
      // Scaled back to model units, so the bound reads in the file's units.
      for (const p of neck) worstNeck = Math.max(worstNeck, nearestDistance(p, bodyPoints) / 0.5)
      const up = centroid(crown).sub(centroid(neck)).normalize()
      const spine = centroid(neck).sub(centroid(bodyPoints)).normalize()
      if (up.dot(spine) > 0.5) upright++
    }
    // The soldier is about 60 units tall; the neck ring lies within a few units of the body's vertices.
    expect(worstNeck).toBeLessThan(3)
    expect(upright / frames.length).toBeGreaterThan(0.95)
  })

  it('follows the tag between keyframes and through a crossfade, in the frame the body draws', async () => {
    const attach = createRef<Group>()
    const bodyRef = createRef<Group>()
    const controller = createRef<MD2AnimationController>()
    const seen: { matrix: Matrix4; pose: MD2Pose }[] = []
    function Probe() {
      // A game's own useFrame: reads the tag's world matrix to spawn a projectile.
      useFrame(() => seen.push({ matrix: attach.current!.matrixWorld.clone(), pose: { ...controller.current!.pose } }))
      return null
    }
    const placed = { position: [1, 2, 3], rotation: [0, 1, 0], scale: 0.25 } as const
    const scene = (animation: string) => (
      <MD2Model
        ref={bodyRef}
        model={body}
        tags={tags}
        animationTable={table}
        {...placed}
        {...{ animation, crossfade: 0.3, controllerRef: controller }}
      >
        <MD2Attach ref={attach} tag="tag_rweapon" />
        <Probe />
      </MD2Model>
    )
    const r = await mount(scene('walk1'))
    // One frame at a time: the test renderer runs each subscriber `frames` times before the next.
    for (let i = 0; i < 2; i++) await r.advanceFrames(1, 0.05)
    await r.update(scene('death1'))
    for (let i = 0; i < 3; i++) await r.advanceFrames(1, 0.05)
    const rweapon = findTag(tags, 'tag_rweapon')
    const last = seen.at(-1)!
    expect(last.pose.fadeWeight).toBeGreaterThan(0)
    expect(last.pose.t).toBeGreaterThan(0)
    const expected = bodyRef
      .current!.matrixWorld.clone()
      .multiply(new Matrix4().makeScale(0.25, 0.25, 0.25))
      .multiply(setTagMatrix(new Matrix4(), tagTransform(tags, rweapon, last.pose)))
    last.matrix.elements.forEach((value, i) => expect(value).toBeCloseTo(expected.elements[i]!, 5))
    // And it moved: every recorded frame differs from the one before.
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.matrix.equals(seen[i - 1]!.matrix)).toBe(false)
  })

  it('places its children within the tag by its own position, rotation and scale', async () => {
    const attach = createRef<Group>()
    const r = await mount(
      <MD2Model model={body} tags={tags} frame={100}>
        <MD2Attach ref={attach} tag="tag_lweapon" position={[4, 0, 0]} rotation={[0, Math.PI / 2, 0]} />
      </MD2Model>,
    )
    await r.advanceFrames(1, 0)
    const offset = new Matrix4().compose(new Vector3(4, 0, 0), attach.current!.quaternion, new Vector3(1, 1, 1))
    const expected = setTagMatrix(new Matrix4(), tagTransform(tags, findTag(tags, 'tag_lweapon'), createPose(100))).multiply(offset)
    attach.current!.matrix.elements.forEach((value, i) => expect(value).toBeCloseTo(expected.elements[i]!, 5))
  })

  it('takes tags loaded from a URL with Suspense (useMD2Tags), and warns once when the counts of frames differ', async () => {
    serveAssets()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const attach = createRef<Group>()
    function OgroAttached() {
      return (
        <MD2Model model={ogro} tags={useMD2Tags(`${HOST}/a/${SOLDIER}body.tag`)} frame={150}>
          <MD2Attach ref={attach} tag="tag_head" />
        </MD2Model>
      )
    }
    const ogroAttached = <OgroAttached />
    const r = await mount(ogroAttached)
    await vi.waitFor(() => expect(attach.current).not.toBeNull())
    await r.advanceFrames(2, 0)
    expect(warn.mock.calls.filter(([message]) => String(message).includes('1007 frames'))).toHaveLength(1)
    const expected = setTagMatrix(new Matrix4(), tagTransform(tags, 0, createPose(150)))
    attach.current!.matrix.elements.forEach((value, i) => expect(value).toBeCloseTo(expected.elements[i]!, 5))
  })

  it('a tag the file lacks warns once and leaves the children at the origin; outside a tagged model is an error', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const attach = createRef<Group>()
    const r = await mount(
      <MD2Model model={body} tags={tags}>
        <MD2Attach ref={attach} tag="tag_tail" />
      </MD2Model>,
    )
    await r.advanceFrames(3, 0.1)
    const warnings = warn.mock.calls.map(([message]) => String(message)).filter((message) => message.includes('"tag_tail"'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('tag_head, tag_lweapon, tag_rweapon, tag_floor')
    expect(attach.current!.matrix.equals(new Matrix4())).toBe(true)

    vi.spyOn(console, 'error').mockImplementation(() => {})
    await expect(mount(<MD2Attach tag="tag_head" />)).rejects.toMatchObject({ code: 'BAD_ARGUMENT' })
    await expect(
      mount(
        <MD2Model model={body}>
          <MD2Attach tag="tag_head" />
        </MD2Model>,
      ),
    ).rejects.toMatchObject({ code: 'BAD_ARGUMENT', message: expect.stringContaining('no `tags`') })
  })
})

/** `child` synced inside `parent` (with `props`); the child's ref. */
async function mountSynced(parent: MD2ModelData, child: MD2ModelData, props: Partial<MD2ModelProps>) {
  const ref = createRef<Group>()
  const r = await mount(
    <MD2Model model={parent} {...props}>
      <MD2Model ref={ref} model={child} sync />
    </MD2Model>,
  )
  return { r, child: ref }
}

describe('synced models', () => {
  it("a synced weapon's vertices equal a separately animated weapon's, through steps and a crossfade, beside other synced children", async () => {
    const synced = createRef<Group>()
    const alone = createRef<Group>()
    const scene = (animation: string) => (
      <>
        <MD2Model model={ogro} animation={animation} crossfade={0.2}>
          <MD2Model model={railgun} sync />
          <MD2Model ref={synced} model={railgun} sync animation="pain1" fps={3} />
          <MD2Model model={railgun} sync reverse />
        </MD2Model>
        <MD2Model ref={alone} model={railgun} animation={animation} crossfade={0.2} position={[50, 0, 0]} />
      </>
    )
    const r = await mount(scene('run'))
    const positions = (group: Group) => (meshOf(group).geometry as BufferGeometry).getAttribute('position').array as Float32Array
    for (const [frames, step, next] of [
      [5, 0.037, 'attack'],
      [7, 0.021, 'run'],
      [4, 0.1, 'jump'],
    ] as const) {
      for (let i = 0; i < frames; i++) {
        await r.advanceFrames(1, step)
        expect(positions(synced.current!)).toEqual(positions(alone.current!))
      }
      await r.update(scene(next))
    }
  })

  it("children share the model's scale, so a synced weapon stays in the hand of a scaled body", async () => {
    const { r, child: gun } = await mountSynced(ogro, railgun, { scale: 0.1 })
    await r.advanceFrames(1, 0)
    meshOf(gun.current!).updateWorldMatrix(true, false)
    expect(new Vector3().setFromMatrixScale(meshOf(gun.current!).matrixWorld).toArray()).toEqual(
      [0.1, 0.1, 0.1].map(Math.fround).map((v) => expect.closeTo(v, 6)),
    )
  })

  it('a synced model with fewer frames shows its last for the extra ones, with one warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { r, child: hat } = await mountSynced(body, head, { frame: 500 })
    await r.advanceFrames(3, 0.1)
    expect(warn.mock.calls.filter(([message]) => String(message).includes('head01.md2 has 1 frames'))).toHaveLength(1)
    expect(Array.from((meshOf(hat.current!).geometry as BufferGeometry).getAttribute('position').array).every(Number.isFinite)).toBe(true)
  })
})
