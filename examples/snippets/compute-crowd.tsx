import type { ReactNode } from 'react'
import { MD2Instances } from 'react-three-md2'

/** On real WebGPU, the poses blended by a compute pass; elsewhere by the vertex shader. */
export function ComputedCrowd({ children }: { children: ReactNode }) {
  return (
    <MD2Instances url="/players/ogro/tris.MD2" limit={10000} decode="compute">
      {children}
    </MD2Instances>
  )
}
