import { useLayoutEffect, useMemo } from 'react'
import { poseBox } from '../core/animation/blendVerticesBounded.js'
import type { MD2PoseLayer } from './MD2ModelContext.js'
import { useLayerOwner } from './useLayerOwner.js'

/**
 * Makes the `<MD2Model>` it is put in keep the box of the pose it draws in its geometry's `boundingBox` and
 * `boundingSphere`, found in the same pass that writes the vertices (instead of the box of every frame), so
 * that `Box3.setFromObject`, drei's `<Bounds>` and `BoxHelper`, colliders and raycasting follow the
 * animation: a lying ogro in a lying ogro's box. Its code ships only with its import. Renders nothing itself.
 */
export function MD2PoseBounds(): null {
  const { addLayer } = useLayerOwner('MD2PoseBounds')
  const layer = useMemo<MD2PoseLayer>(() => ({ kind: 'bounds', box: poseBox }), [])
  useLayoutEffect(() => addLayer(layer), [addLayer, layer])
  return null
}
