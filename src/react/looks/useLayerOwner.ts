import { useContext, useLayoutEffect } from 'react'
import { Mesh, type BufferGeometry, type Material } from 'three'
import type { MD2ModelData } from '../../core/format/types.js'
import { warnOnce } from '../../core/warnOnce.js'
import { MD2LookContext, type MD2LookOwner, type MD2WornLook } from '../MD2ModelContext.js'
export { markLook } from '../MD2ModelContext.js'
import { crowdLookSupport } from '../MD2ModelContext.js'
import { crowdLooks } from './crowdLooks.js'
import { useOwned } from '../useOwned.js'

// Crowds wear looks once a look is imported: each look imports this module.
crowdLookSupport.current = crowdLooks

/**
 * What a look (`<MD2Shell>`, `<MD2BlobShadow>`, `<MD2Quake2Lighting>`, `<MD2PoseBounds>`) dresses: the nearest
 * enclosing `<MD2Model>`, `<MD2Instances>` or `<MD2Instance>`; null, with a one-time warning, outside them all.
 */
export function useLayerOwner(component: string): MD2LookOwner | null {
  const owner = useContext(MD2LookContext)
  if (!owner)
    warnOnce(
      `look-outside:${component}`,
      `<${component}> dresses the <MD2Model>, <MD2Player>, <MD2Instances> or <MD2Instance> it is put in, and is in none; drawing nothing`,
    )
  return owner
}

/**
 * Wears `look` on the crowd or instance `owner` while mounted (by value: a new array each render is the
 * same look). Renders nothing: the crowd draws it.
 */
export function WornLook({ owner, look }: { owner: MD2LookOwner; look: MD2WornLook }): null {
  const key = JSON.stringify(look)
  useLayoutEffect(() => owner.wear!(JSON.parse(key) as MD2WornLook), [owner, key])
  return null
}

/** The raycast of meshes that rays pass through (a blob shadow, a shell). */
function ignoreRays(): void {}

/** A layer's own geometry (made for its model) and material, each disposed when replaced or unmounted. */
export function useLayerResources<G extends BufferGeometry, M extends Material>(
  model: MD2ModelData,
  createGeometry: (model: MD2ModelData) => G,
  createMaterial: () => M,
): { geometry: G; material: M } {
  const geometry = useOwned(() => createGeometry(model), [createGeometry, model])
  const material = useOwned(createMaterial, [createMaterial])
  return { geometry, material }
}

/** A layer mesh's name and raycast: rays pass through it unless it is `pickable`. */
export function layerMeshProps(model: MD2ModelData, layer: string, pickable: boolean): Pick<Mesh, 'name' | 'raycast'> {
  return { name: `${model.name ?? 'md2'} ${layer}`, raycast: pickable ? Mesh.prototype.raycast : ignoreRays }
}
