import { WebGPUCoordinateSystem, type Material } from 'three'
import { Fn, modelViewProjection, vec4 } from 'three/tsl'
import type { Node } from 'three/webgpu'

/** RF_DEPTHHACK for `WebGPURenderer` (see `materials/depthHack.ts`): a `vertexNode`, which `WebGLRenderer` ignores. */
export function squeezeDepthTSL(material: Material): void {
  ;(material as Material & { vertexNode?: unknown }).vertexNode = Fn(({ renderer }: { renderer: { coordinateSystem: number } }) => {
    const clip = modelViewProjection as Node<'vec4'>
    // WebGPU's depth is z/w in 0…1 (0.3 of it: z' = 0.3 z); WebGL2's is (z/w + 1) / 2 (z' = 0.3 z − 0.7 w).
    const z = renderer.coordinateSystem === WebGPUCoordinateSystem ? clip.z.mul(0.3) : clip.z.mul(0.3).sub(clip.w.mul(0.7))
    return vec4(clip.x, clip.y, z, clip.w)
  })()
}
