import { MD2Error } from '../core/MD2Error.js'
import { useMD2ModelContext, type MD2ModelContextValue } from './MD2ModelContext.js'

/** The `<MD2Model>` a layer component (`<MD2Shell>`, `<MD2BlobShadow>`) is drawn from: its nearest enclosing one. */
export function useLayerOwner(component: string): MD2ModelContextValue {
  const owner = useMD2ModelContext()
  if (!owner) throw new MD2Error('BAD_ARGUMENT', `<${component}> is drawn from an <MD2Model>'s pose: put it inside one`)
  return owner
}

/** The raycast of meshes that rays pass through (a blob shadow, a shell). */
export function ignoreRays(): void {}
