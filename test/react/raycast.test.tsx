import { createRef } from 'react'
import { Raycaster, Vector3, type Group, type Intersection, type Mesh } from 'three'
import { describe, expect, it } from 'vitest'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { MD2BlobShadow } from '../../src/react/looks/MD2BlobShadow'
import { MD2Model } from '../../src/react/MD2Model'
import { MD2Shell } from '../../src/react/looks/MD2Shell'
import { readAsset } from '../support/assets'
import { mount } from '../support/render'

const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2'), { name: 'ogro/tris.MD2' })

/** Rays straight down over a grid around the model: what each one hits, by mesh name. */
function castGrid(group: Group): { at: [number, number]; hits: string[] }[] {
  group.updateMatrixWorld(true)
  for (const child of group.children as Mesh[]) child.geometry?.computeBoundingSphere()
  const raycaster = new Raycaster()
  const rays: { at: [number, number]; hits: string[] }[] = []
  for (let x = -60; x <= 60; x += 3)
    for (let z = -60; z <= 60; z += 3) {
      raycaster.set(new Vector3(x, 200, z), new Vector3(0, -1, 0))
      const hits = raycaster.intersectObject(group, true) as Intersection<Mesh>[]
      rays.push({ at: [x, z], hits: hits.map((hit) => hit.object.name) })
    }
  return rays
}

describe('rays hit the body, not its blob shadow or shells', () => {
  it('a ray that meets only the blob shadow (or a shell) hits nothing; `pickable` lets them be hit', async () => {
    const ref = createRef<Group>()
    const scene = (pickable: boolean) => (
      <MD2Model ref={ref} model={ogro} frame={100} rotation-y={0.5}>
        <MD2BlobShadow floor={-24} pickable={pickable} />
        <MD2Shell color="blue" pickable={pickable} />
      </MD2Model>
    )
    const renderer = await mount(scene(true))
    await renderer.advanceFrames(2, 1 / 60)
    const withExtras = castGrid(ref.current!)
    // Asked for, the shadow and the shell are hit, and some rays meet only the shadow on the floor.
    expect(withExtras.some((ray) => ray.hits.includes('ogro/tris.MD2 shadow'))).toBe(true)
    expect(withExtras.some((ray) => ray.hits.includes('ogro/tris.MD2 shell'))).toBe(true)
    const onlyShadow = withExtras.filter((ray) => ray.hits.length > 0 && ray.hits.every((name) => name === 'ogro/tris.MD2 shadow'))
    expect(onlyShadow.length).toBeGreaterThan(5)

    await renderer.update(scene(false))
    await renderer.advanceFrames(2, 1 / 60)
    const bodyOnly = castGrid(ref.current!)
    // The same rays now hit nothing; every ray that hits, hits the body itself.
    for (const ray of onlyShadow) expect(bodyOnly.find((r) => r.at[0] === ray.at[0] && r.at[1] === ray.at[1])!.hits).toEqual([])
    const hitting = bodyOnly.filter((ray) => ray.hits.length > 0)
    expect(hitting.length).toBeGreaterThan(10)
    for (const ray of hitting) expect(new Set(ray.hits)).toEqual(new Set(['ogro/tris.MD2']))
    await renderer.unmount()
  })
})
