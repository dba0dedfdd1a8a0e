/**
 * Which object a ray through an `<MD2Instance>` reports, as R3F's events read it: the instance's group while it
 * has pointer handlers (the crowd then leaves that instance out, so a hit is reported once), the crowd when it
 * has none, and the crowd again once the handlers or the instance are gone.
 */
import { createRef } from 'react'
import { Box3, Raycaster, Vector3, type Group } from 'three'
import { describe, expect, it } from 'vitest'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { MD2Instance, MD2Instances } from '../../src/react/MD2Instances'
import type { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import type { MD2CrowdInstance } from '../../src/three/crowd/MD2CrowdInstance'
import { readAsset } from '../support/assets'
import { mount } from '../support/render'

const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2').slice(), { name: 'ogro/tris.MD2' })
const weapon = parseMD2(readAsset('quake2/ogro/weapon.md2').slice(), { name: 'ogro/weapon.md2' })
const A = new Vector3(-40, 0, -100)
const B = new Vector3(40, 0, -100)

/** A ray from the default camera's place through the middle of the instance standing at `at`. */
function rayTo(at: Vector3): Raycaster {
  const origin = new Vector3(0, 0, 5)
  return new Raycaster(origin, at.clone().sub(origin).normalize())
}

describe('<MD2Instance> pointer handlers', () => {
  it('make its group report its hits, once, while it has them', async () => {
    const crowd = createRef<MD2Crowd>()
    const group = createRef<Group>()
    const a = createRef<MD2CrowdInstance>()
    const b = createRef<MD2CrowdInstance>()
    const scene = (handlers: object, withA = true) => (
      <MD2Instances ref={crowd} model={ogro} limit={2}>
        {withA && <MD2Instance ref={group} controllerRef={a} position={A.toArray()} frame={0} {...handlers} />}
        <MD2Instance controllerRef={b} position={B.toArray()} frame={0} />
      </MD2Instances>
    )
    const r = await mount(scene({ onClick: () => {}, onPointerOver: () => {} }))
    await r.advanceFrames(2, 1 / 60)
    const c = crowd.current!
    const slotA = a.current!.index
    const atA = rayTo(A)
    expect(atA.intersectObject(c, false)).toEqual([])
    const hits = atA.intersectObject(c, true)
    expect(hits.length).toBeGreaterThan(0)
    for (const hit of hits) {
      expect(hit.object).toBe(group.current)
      expect(hit.instanceId).toBe(slotA)
    }
    // B has none: the crowd reports it.
    const atB = rayTo(B)
    expect(atB.intersectObject(group.current!, true)).toEqual([])
    expect(atB.intersectObject(c, false).map((hit) => [hit.object, hit.instanceId])[0]).toEqual([c, b.current!.index])

    // Without handlers, its group is never hit and the crowd reports A again.
    await r.update(scene({}))
    await r.advanceFrames(1, 1 / 60)
    expect(atA.intersectObject(group.current!, false)).toEqual([])
    const byCrowd = atA.intersectObject(c, true)
    expect(byCrowd.length).toBe(hits.length)
    for (const hit of byCrowd) expect([hit.object, hit.instanceId]).toEqual([c, slotA])

    // Unmounted with handlers: its slot is free (and hidden), and given back to the crowd for the next owner.
    await r.update(scene({ onClick: () => {} }))
    await r.advanceFrames(1, 1 / 60)
    expect(atA.intersectObject(c, false)).toEqual([])
    await r.update(scene({}, false))
    await r.advanceFrames(1, 1 / 60)
    expect(atA.intersectObject(c, true)).toEqual([])
    await r.update(scene({}))
    await r.advanceFrames(1, 1 / 60)
    expect(a.current!.index).toBe(slotA)
    expect(atA.intersectObject(c, false).length).toBe(hits.length)
  })

  it("count the weapon an <MD2Instances sync> draws on the instance as the instance's", async () => {
    const crowd = createRef<MD2Crowd>()
    const armed = createRef<MD2Crowd>()
    const group = createRef<Group>()
    const scene = (handlers: object) => (
      <MD2Instances ref={crowd} model={ogro} limit={2}>
        <MD2Instance ref={group} position={A.toArray()} frame={0} {...handlers} />
        <MD2Instances ref={armed} model={weapon} sync />
      </MD2Instances>
    )
    const r = await mount(scene({}))
    // The follower suspends once, while the following code loads.
    // (and the leader draws its instance: under StrictMode and Suspense the scene commits after the retry).
    for (let k = 0; k < 100 && !(armed.current && crowd.current && crowd.current.count > 0); k++) {
      await new Promise((resolve) => setTimeout(resolve, 10))
      await r.advanceFrames(1, 1 / 60)
    }
    await r.advanceFrames(2, 1 / 60)
    const c = crowd.current!
    const w = armed.current!
    expect(w.leader).toBe(c)
    // Without handlers: a ray that hits the weapon's crowd and not the body's, scanned over the weapon's box.
    c.updateMatrixWorld(true)
    const box = w.getPoseBounds(0, new Box3()).applyMatrix4(w.matrixWorld)
    const origin = new Vector3(0, 0, 5)
    let through: Raycaster | undefined
    for (let y = box.max.y; y >= box.min.y && !through; y -= 0.5)
      for (let x = box.min.x; x <= box.max.x && !through; x += 0.5) {
        const raycaster = new Raycaster(origin, new Vector3(x, y, box.max.z).sub(origin).normalize())
        if (raycaster.intersectObject(w, false).length > 0 && raycaster.intersectObject(c, false).length === 0) through = raycaster
      }
    expect(through).toBeDefined()
    const weaponHits = through!.intersectObject(w, false).map((hit) => hit.distance)
    // With a handler, the instance's group reports the weapon's hits; the weapon's crowd leaves them to it.
    await r.update(scene({ onClick: () => {} }))
    await r.advanceFrames(1, 1 / 60)
    expect(through!.intersectObject(w, false)).toEqual([])
    const hits = through!.intersectObject(c, true)
    expect(hits.map((hit) => hit.distance)).toEqual(weaponHits)
    for (const hit of hits) expect([hit.object, hit.instanceId]).toEqual([group.current, 0])
    await r.unmount()
  })
})
