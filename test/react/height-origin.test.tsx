/**
 * `height` and `origin` in React Three Fiber's test renderer, on the real ogro: the body, what is drawn in it
 * and every crowd instance stand `height` tall with their feet at the position, a user's `scale` multiplying;
 * bad values warn once in development and are ignored. (The pictures: test/browser/height-origin.test.tsx.)
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { createRef } from 'react'
import { Box3, Matrix4, Quaternion, Vector3, type Group, type Mesh } from 'three'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fitStanding, getStandingBounds } from '../../src/core/format/standingBounds'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { MD2Instance, MD2Instances } from '../../src/react/MD2Instances'
import { MD2BlobShadow } from '../../src/react/looks/MD2BlobShadow'
import { MD2Model } from '../../src/react/MD2Model'
import { MD2Player } from '../../src/react/MD2Player'
import { clearPlayerFiles } from '../../src/react/loading/playerFiles'
import { useMD2 } from '../../src/react/loading/useMD2'
import { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import { crowdParts } from '../../src/three/crowd/crowdParts'
import { loadCrowdQueries } from '../../src/three/crowd/loadCrowdQueries'
import { ASSETS_DIR, readAsset } from '../support/assets'
import { mount } from '../support/render'
import { HOST, serveAssets } from '../support/serve'

const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2'), { name: 'ogro' })
const weapon = parseMD2(readAsset('quake2/ogro/weapon.md2'), { name: 'ogro weapon' })
const OGRO_FOLDER = `${HOST}/a/quake2/ogro/`
const ogroFiles = readdirSync(join(ASSETS_DIR, 'quake2/ogro'))

afterEach(() => {
  vi.restoreAllMocks()
  clearPlayerFiles()
  useMD2.clear()
})

const warnings = () => vi.spyOn(console, 'warn').mockImplementation(() => {})
const messagesOf = (warn: ReturnType<typeof warnings>) => warn.mock.calls.map(([message]) => String(message))

/** The world box of what `mesh` shows now (its written vertices, placed by its world matrix). */
function worldBox(mesh: Mesh): Box3 {
  mesh.updateWorldMatrix(true, false)
  return new Box3().setFromObject(mesh, true)
}

/**
 * The body under `root` stands from `feet` to `head` (world y), and the weapon drawn in it (the first model in the
 * children's group) has the body's world matrix: the children's group is placed as the body.
 */
function expectArmedStanding(root: Group, feet: number, head: number): void {
  const body = root.children[0] as Mesh
  const box = worldBox(body)
  expect(box.min.y).toBeCloseTo(feet, 5)
  expect(box.max.y).toBeCloseTo(head, 5)
  const held = root.children[1]!.children[0]!.children[0] as Mesh
  expect(held.name).toMatch(/weapon/)
  held.updateWorldMatrix(true, false)
  expect(held.matrixWorld.elements).toEqual(body.matrixWorld.elements)
}

describe('height and origin', () => {
  it('<MD2Model height origin="feet">: standing `height` tall, feet at the position, a synced weapon placed as the body', async () => {
    const root = createRef<Group>()
    const r = await mount(
      <MD2Model ref={root} model={ogro} height={1.8} origin="feet" position={[5, 2, 0]} frame={0}>
        <MD2Model model={weapon} sync />
      </MD2Model>,
    )
    await r.advanceFrames(1, 0.05)
    expectArmedStanding(root.current!, 2, 3.8)
  })

  it('a blob shadow lies on its floor under a model sized and lifted so (Quake II draws it 1 model unit above)', async () => {
    const root = createRef<Group>()
    const r = await mount(
      <MD2Model ref={root} model={ogro} height={1.8} origin="feet" position={[0, 0.5, 0]} frame={0}>
        <MD2BlobShadow floor={0.5} />
      </MD2Model>,
    )
    // The shadow is placed from the body's world matrix, which a renderer brings up to date each frame (the test renderer does not).
    await r.advanceFrames(1, 0.05)
    root.current!.updateWorldMatrix(true, true)
    await r.advanceFrames(1, 0.05)
    const shadow = root.current!.children[1]!.children[0] as Mesh
    expect(shadow.name).toMatch(/shadow$/)
    const box = worldBox(shadow)
    const unit = 1.8 / getStandingBounds(ogro).height
    expect(box.min.y).toBeCloseTo(0.5 + unit, 5)
    expect(box.max.y).toBeCloseTo(0.5 + unit, 5)
  })

  it("a user's scale multiplies `height`'s, and the feet stay at the position", async () => {
    const root = createRef<Group>()
    const r = await mount(<MD2Model ref={root} model={ogro} height={1.8} origin="feet" scale={[1, 2, 1]} frame={0} />)
    await r.advanceFrames(1, 0.05)
    const box = worldBox(root.current!.children[0] as Mesh)
    expect(box.min.y).toBeCloseTo(0, 5)
    expect(box.max.y).toBeCloseTo(3.6, 5)
    const { min, max, height } = getStandingBounds(ogro)
    expect(box.max.x - box.min.x).toBeCloseTo(((max[0] - min[0]) * 1.8) / height, 4)
  })

  it('origin="quake2" (the default) keeps the file origin at the position; taking the props away gives the file size back', async () => {
    const root = createRef<Group>()
    const { min, height } = getStandingBounds(ogro)
    const r = await mount(<MD2Model ref={root} model={ogro} height={1.8} frame={0} />)
    await r.advanceFrames(1, 0.05)
    expect(worldBox(root.current!.children[0] as Mesh).min.y).toBeCloseTo((min[1] * 1.8) / height, 5)
    await r.update(<MD2Model ref={root} model={ogro} frame={0} />)
    await r.advanceFrames(1, 0.05)
    expect(worldBox(root.current!.children[0] as Mesh).min.y).toBeCloseTo(min[1], 4)
  })

  it('<MD2Instances height origin>: every instance and its synced follower, placed by the crowd, pose bounds included', async () => {
    await loadCrowdQueries()
    const crowd = createRef<MD2Crowd>()
    const follower = createRef<MD2Crowd>()
    const r = await mount(
      <MD2Instances ref={crowd} model={ogro} limit={2} height={1.8} origin="feet">
        <MD2Instance position={[3, 0, 0]} frame={0} />
        <MD2Instance position={[-3, 1, 0]} scale={2} frame={0} />
        <MD2Instances ref={follower} model={weapon} sync />
      </MD2Instances>,
    )
    // The follower's code loads on demand (the scene suspends meanwhile; slow on a busy machine). The retry
    // commits outside act(): its passive effects, where useFrame subscribes in Node, may come a task after the
    // follower is linked (in a layout effect), so wait until the crowd has drawn its instances too.
    await vi.waitFor(
      async () => {
        await r.advanceFrames(1, 0.05)
        expect(follower.current?.leader).toBe(crowd.current)
        expect(crowd.current!.count).toBe(2)
      },
      { timeout: 20_000, interval: 20 },
    )
    await r.advanceFrames(2, 0.05)
    const first = crowd.current!.getPoseBounds(0, new Box3())
    expect(first.min.y).toBeCloseTo(0, 4)
    expect(first.max.y).toBeCloseTo(1.8, 4)
    const second = crowd.current!.getPoseBounds(1, new Box3())
    expect(second.min.y).toBeCloseTo(1, 4)
    expect(second.max.y).toBeCloseTo(1 + 3.6, 4)
    // The follower's instances stand where its leader's do: the same matrices, the standing one in them.
    expect(follower.current!.leader).toBe(crowd.current)
    const placed = new Matrix4().compose(new Vector3(3, 0, 0), new Quaternion(), new Vector3(1, 1, 1))
    const { scale, lift } = fitStanding(ogro, 1.8, 'feet')
    placed.multiply(new Matrix4().makeScale(scale, scale, scale).setPosition(0, lift, 0))
    expect(instanceMatrix(crowd.current!, 0)).toEqual([...new Float32Array(placed.elements)])
    for (const i of [0, 1]) expect(instanceMatrix(follower.current!, i)).toEqual(instanceMatrix(crowd.current!, i))
  })

  it('MD2Crowd.setStanding places the instances placed after it, as <MD2Instances height origin> does', async () => {
    const crowd = new MD2Crowd(ogro, { limit: 1 })
    crowd.setStanding(1.8, 'feet')
    crowd.setTransform(0, { position: [0, 0, 0] })
    crowd.showFrame(0, 0)
    const box = crowd.getPoseBounds(0, new Box3())
    expect(box.min.y).toBeCloseTo(0, 4)
    expect(box.max.y).toBeCloseTo(1.8, 4)
    crowd.setStanding(undefined)
    crowd.setTransform(0, { position: [0, 0, 0] })
    expect(crowd.getPoseBounds(0, new Box3()).min.y).toBeCloseTo(getStandingBounds(ogro).min[1], 3)
    crowd.dispose()
  })

  it('a bad height or origin warns once, naming the component and value, and is ignored', async () => {
    const warn = warnings()
    const root = createRef<Group>()
    const scene = (
      <MD2Model ref={root} model={ogro} height={-1} origin={'foot' as 'feet'} frame={0}>
        <group />
      </MD2Model>
    )
    const r = await mount(scene)
    await r.update(scene)
    await r.advanceFrames(1, 0.05)
    const messages = messagesOf(warn)
    expect(messages.filter((m) => m.includes('<MD2Model height={-1}> is not a positive number'))).toHaveLength(1)
    expect(messages.filter((m) => m.includes('<MD2Model origin="foot"> is "feet" or "quake2"'))).toHaveLength(1)
    const body = root.current!.children[0] as Mesh
    expect(body.scale.toArray()).toEqual([1, 1, 1])
    expect(body.position.toArray()).toEqual([0, 0, 0])
    expect(root.current!.children[1]!.scale.toArray()).toEqual([1, 1, 1])
  })

  it('<MD2Player>: a bad height warns once (not again from the body it draws); a good one sizes the body and its weapon', async () => {
    serveAssets()
    const warn = warnings()
    const body = createRef<Group>()
    const r = await mount(<MD2Player ref={body} path={OGRO_FOLDER} files={ogroFiles} weapon="weapon" height={Number.NaN} frame={0} />)
    await vi.waitFor(() => expect(body.current?.children[1]?.children.length).toBeGreaterThan(0), { timeout: 5000 })
    expect(messagesOf(warn).filter((m) => m.includes('height={NaN}'))).toEqual([
      'react-three-md2: <MD2Player height={NaN}> is not a positive number of world units; drawing the model at its own size',
    ])
    await r.update(<MD2Player ref={body} path={OGRO_FOLDER} files={ogroFiles} weapon="weapon" height={1.8} origin="feet" frame={0} />)
    await r.advanceFrames(1, 0.05)
    expectArmedStanding(body.current!, 0, 1.8)
  })

  it('height on an <MD2Instance> or a follower crowd warns that it belongs on the leading <MD2Instances>', async () => {
    const warn = warnings()
    await mount(
      <MD2Instances model={ogro} limit={1}>
        <MD2Instance {...({ height: 2 } as object)} />
        <MD2Instances model={weapon} sync height={2} />
      </MD2Instances>,
    )
    await vi.waitFor(() => expect(messagesOf(warn).some((m) => m.includes('follows its leader'))).toBe(true), { timeout: 5000 })
    expect(
      messagesOf(warn).filter((m) => m.includes('<MD2Instance height> does nothing here: `height` belongs on <MD2Instances>')),
    ).toHaveLength(1)
  })
})

/** Instance `i`'s matrix as the crowd keeps it (relative to the crowd), which its draws, culling and queries read. */
function instanceMatrix(crowd: MD2Crowd, i: number): number[] {
  return [...crowdParts.get(crowd)!.instances.transforms.subarray(i * 16, i * 16 + 16)]
}
