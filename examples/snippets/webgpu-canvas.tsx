import { Canvas } from '@react-three/fiber'
import type { ReactNode } from 'react'
import { PCFShadowMap } from 'three'
import { WebGPURenderer } from 'three/webgpu'
// Once in a WebGPURenderer app (three r187 or later): the GPU crowd, the view weapon's depth squeeze and
// translucent surfaces blending as on WebGLRenderer.
import 'react-three-md2/webgpu'

export function WebGPUCanvas({ children }: { children: ReactNode }) {
  return (
    <Canvas
      gl={async (props) => {
        const renderer = new WebGPURenderer(props as ConstructorParameters<typeof WebGPURenderer>[0])
        await renderer.init()
        return renderer
      }}
      shadows={{ enabled: true, type: PCFShadowMap }} // R3F's default, PCFSoftShadowMap, is not in three's WebGPU renderer
    >
      {children}
    </Canvas>
  )
}
