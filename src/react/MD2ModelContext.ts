import { createContext, useContext } from 'react'
import type { MD2Pose } from '../core/animation/pose.js'
import type { MD2Tags } from '../core/tags/parseMD2Tags.js'
import type { MD2ModelData } from '../core/format/types.js'

/** What an `<MD2Model>` tells its children (synced models, attachments). */
export interface MD2ModelContextValue {
  model: MD2ModelData
  /** What the model shows, updated in place before children's `useFrame` callbacks run. */
  pose: Readonly<MD2Pose>
  /** The model's tags (`<MD2Model tags>`), for `<MD2Attach>`. */
  tags: MD2Tags | undefined
}

export const MD2ModelContext = createContext<MD2ModelContextValue | null>(null)

/** The nearest enclosing `<MD2Model>`, or null. */
export function useMD2ModelContext(): MD2ModelContextValue | null {
  return useContext(MD2ModelContext)
}
