import { useEffect, useMemo } from 'react'
import { Mesh, type BufferGeometry, type Material } from 'three'
import { MD2Error } from '../core/MD2Error.js'
import type { MD2ModelData } from '../core/format/types.js'
import { useMD2ModelContext, type MD2ModelContextValue } from './MD2ModelContext.js'

/** The `<MD2Model>` a layer component (`<MD2Shell>`, `<MD2BlobShadow>`) is drawn from: its nearest enclosing one. */
export function useLayerOwner(component: string): MD2ModelContextValue {
  const owner = useMD2ModelContext()
  if (!owner) throw new MD2Error('BAD_ARGUMENT', `<${component}> is drawn from an <MD2Model>'s pose: put it inside one`)
  return owner
}

/** The raycast of meshes that rays pass through (a blob shadow, a shell). */
function ignoreRays(): void {}

/** A layer's own geometry (made for its model) and material, each disposed when replaced or unmounted. */
export function useLayerResources<G extends BufferGeometry, M extends Material>(
  model: MD2ModelData,
  createGeometry: (model: MD2ModelData) => G,
  createMaterial: () => M,
): { geometry: G; material: M } {
  const geometry = useMemo(() => createGeometry(model), [createGeometry, model])
  useEffect(() => () => geometry.dispose(), [geometry])
  const material = useMemo(() => createMaterial(), [createMaterial])
  useEffect(() => () => material.dispose(), [material])
  return { geometry, material }
}

/** A layer mesh's name and raycast: rays pass through it unless it is `pickable`. */
export function layerMeshProps(model: MD2ModelData, layer: string, pickable: boolean): Pick<Mesh, 'name' | 'raycast'> {
  return { name: `${model.name ?? 'md2'} ${layer}`, raycast: pickable ? Mesh.prototype.raycast : ignoreRays }
}
