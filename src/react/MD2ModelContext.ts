import { createContext, useContext } from 'react'
import type { BufferGeometry, Object3D } from 'three'
import type { MD2Pose } from '../core/animation/pose.js'
import type { MD2Tags } from '../core/tags/parseMD2Tags.js'
import type { MD2ModelData } from '../core/format/types.js'

/**
 * A drawing made from the model's pose in the model's own pass (`<MD2Shell>`, `<MD2BlobShadow>`): its
 * geometry is written with the body's vertices, frame by frame, and not otherwise.
 */
export interface MD2PoseLayer {
  kind: 'shell' | 'shadow'
  /** A geometry from `createMD2ShellGeometry` or `createMD2ShadowGeometry` for this model. */
  geometry: BufferGeometry
  /** A blob shadow's shade vector and height (`WriteMD2PoseOptions.shadow.parameters`). */
  parameters?: Float64Array
  /** Called before each write with the body's mesh (world matrix current): returns whether the layer must be written again. */
  place?(body: Object3D): boolean
}

/** What an `<MD2Model>` tells its children (synced models, attachments, shells and shadows). */
export interface MD2ModelContextValue {
  model: MD2ModelData
  /** What the model shows, updated in place before children's `useFrame` callbacks run. */
  pose: Readonly<MD2Pose>
  /** The model's tags (`<MD2Model tags>`), for `<MD2Attach>`. */
  tags: MD2Tags | undefined
  /** Draws a layer from the model's pose in the model's own pass (one of each kind); returns what removes it. */
  addLayer(layer: MD2PoseLayer): () => void
}

export const MD2ModelContext = createContext<MD2ModelContextValue | null>(null)

/** The nearest enclosing `<MD2Model>`, or null. */
export function useMD2ModelContext(): MD2ModelContextValue | null {
  return useContext(MD2ModelContext)
}
