/**
 * `<MD2Instances>` in an app that imports no look ships no look: its crowd is an `MD2CrowdBase`, whose look
 * members, called through the ref, throw an `MD2Error` naming the import that brings them; pointer handlers on
 * the crowd or an instance load its raycast before it draws. Once a look is imported, crowds are `MD2Crowd`s.
 * (This file imports no look up front: the looks hand crowds their class when their modules load.)
 */
import { createRef } from 'react'
import { Raycaster, Vector3, type Intersection } from 'three'
import { describe, expect, it } from 'vitest'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { MD2Instance, MD2Instances } from '../../src/react/MD2Instances'
import { loadedCrowdQueries } from '../../src/three/crowd/loadCrowdQueries'
import { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import { MD2CrowdBase } from '../../src/three/crowd/MD2CrowdBase'
import { readAsset } from '../support/assets'
import { crowdCamera } from '../support/cameras'
import { expectMD2Error } from '../support/errors'
import { mount } from '../support/render'

const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2').slice(), { name: 'ogro/tris.MD2' })

describe('<MD2Instances> without a look imported', () => {
  it('makes a crowd without looks: its look members throw an MD2Error naming the import', async () => {
    const crowd = createRef<MD2Crowd>()
    const r = await mount(
      <MD2Instances ref={crowd} model={ogro} limit={2}>
        <MD2Instance animation="run" />
      </MD2Instances>,
    )
    await r.advanceFrames(2, 0.05)
    const c = crowd.current!
    expect(c).toBeInstanceOf(MD2CrowdBase)
    expect(c).not.toBeInstanceOf(MD2Crowd)
    expect(c.size).toBe(1)
    expect(c.count).toBe(1)
    expectMD2Error(() => c.setShell(0, 'red'), 'UNSUPPORTED', { text: /MD2Shell.*from 'react-three-md2'/ })
    expectMD2Error(() => c.setLighting({ shadelight: 2 }), 'UNSUPPORTED', { text: /MD2Quake2Lighting/ })
    expectMD2Error(() => c.shadow, 'UNSUPPORTED', { text: /MD2BlobShadow/ })
    // Its raycast's code is not loaded: nothing asked for it.
    expect(loadedCrowdQueries()).toBeUndefined()
  })

  it('pointer handlers load the raycast before the crowd draws: a ray meets the instance at once', async () => {
    const crowd = createRef<MD2Crowd>()
    const r = await mount(
      <MD2Instances ref={crowd} model={ogro} limit={2}>
        <MD2Instance position={[-40, -10, 0]} animation="stand" onClick={() => {}} />
      </MD2Instances>,
    )
    await r.advanceFrames(1, 0.05)
    expect(loadedCrowdQueries()).toBeDefined()
    const c = crowd.current!
    const camera = crowdCamera()
    c.update(0, camera)
    c.updateMatrixWorld(true)
    const ray = new Raycaster(camera.position.clone(), new Vector3(-40, -10, 0).sub(camera.position).normalize())
    // The instance's group reports its hits (as drei's <Instance>): a recursive raycast of the crowd meets it.
    const hits: Intersection[] = ray.intersectObject(c, true)
    expect(hits.length).toBeGreaterThan(0)
    expect(hits[0]!.instanceId).toBe(0)
    expect(hits[0]!.object).not.toBe(c)
  })

  it('once a look is imported, crowds are made with their looks (MD2Crowd)', async () => {
    const { MD2Shell } = await import('../../src/react/looks/MD2Shell')
    const crowd = createRef<MD2Crowd>()
    await mount(
      <MD2Instances ref={crowd} model={ogro} limit={2}>
        <MD2Instance animation="run">
          <MD2Shell color="red" />
        </MD2Instance>
      </MD2Instances>,
    )
    expect(crowd.current).toBeInstanceOf(MD2Crowd)
    expect(crowd.current!.shell.visible).toBe(true)
  })
})
