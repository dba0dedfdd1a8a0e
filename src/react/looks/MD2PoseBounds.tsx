import { useLayoutEffect, useMemo, type ReactNode } from 'react'
import { poseBox } from '../../core/animation/blendVerticesBounded.js'
import type { MD2PoseLayer } from '../MD2ModelContext.js'
import { warnOnce } from '../../core/warnOnce.js'
import { markLook, useLayerOwner } from './useLayerOwner.js'

/**
 * Makes the `<MD2Model>` it is put in keep the box of the pose it draws in its geometry's `boundingBox` and
 * `boundingSphere`, found in the same pass that writes the vertices (instead of the box of every frame), so
 * that `Box3.setFromObject`, drei's `<Bounds>` and `BoxHelper`, colliders and raycasting follow the
 * animation: a lying ogro in a lying ogro's box. Its code ships only with its import. Renders nothing itself.
 * A crowd has no geometry of its own to bound: there it warns, and `crowd.getPoseBounds(i, box)` answers.
 */
export const MD2PoseBounds = markLook(function MD2PoseBounds(): ReactNode {
  const owner = useLayerOwner('MD2PoseBounds')
  if (!owner) return null
  if (owner.wear) {
    warnOnce(
      `${owner.model.name}:crowd-bounds`,
      `<MD2PoseBounds> in ${owner.component} (${owner.model.name ?? 'model'}) has no geometry of its own to bound; ask crowd.getPoseBounds(i, box)`,
    )
    return null
  }
  return <ModelPoseBounds addLayer={owner.addLayer!} />
})

function ModelPoseBounds({ addLayer }: { addLayer: (layer: MD2PoseLayer) => () => void }): null {
  const layer = useMemo<MD2PoseLayer>(() => ({ kind: 'bounds', box: poseBox }), [])
  useLayoutEffect(() => addLayer(layer), [addLayer, layer])
  return null
}
