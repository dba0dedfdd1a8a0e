import { createContext, useContext } from 'react'
import type { MD2Pose } from '../core/animation/pose.js'
import type { MD2Origin } from '../core/format/standingBounds.js'
import type { MD2ModelData } from '../core/format/types.js'

/**
 * What an `<MD2Instance>` tells its children (`<MD2Collider>` of `react-three-md2/rapier`): the crowd's model, the
 * instance's controller (its `pose`, current before physics steps) and the crowd's `height` and `origin`, which the
 * instance's group does not carry (the crowd composes them into each instance's matrix). A module of its own, so
 * that reading it brings no crowd code.
 */
export interface MD2InstanceContextValue {
  model: MD2ModelData
  control: { readonly pose: Readonly<MD2Pose> }
  height: number | undefined
  origin: MD2Origin | undefined
}

export const MD2InstanceContext = /* @__PURE__ */ createContext<MD2InstanceContextValue | null>(null)

/** The nearest enclosing `<MD2Instance>`, or null. */
export function useMD2InstanceContext(): MD2InstanceContextValue | null {
  return useContext(MD2InstanceContext)
}
