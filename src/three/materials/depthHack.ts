import { WebGPUCoordinateSystem, type Material } from 'three'
import { Fn, modelViewProjection, vec4 } from 'three/tsl'
import type { Node } from 'three/webgpu'

/**
 * Quake II's RF_DEPTHHACK, `glDepthRange(0, 0.3)`: the view weapon's depth squeezed into the nearest 30%
 * of the range, so it never clips into walls. On both renderers: GLSL for `WebGLRenderer`, a TSL
 * `vertexNode` for `WebGPURenderer`, each ignoring the other's.
 */
export function squeezeDepth(material: Material): void {
  const previous = material.onBeforeCompile.bind(material)
  material.onBeforeCompile = (shader, renderer) => {
    previous(shader, renderer)
    // Depth d = (z/w + 1) / 2 becomes 0.3 d, i.e. z' = 0.3 z − 0.7 w.
    shader.vertexShader = shader.vertexShader.replace(
      '#include <project_vertex>',
      '#include <project_vertex>\ngl_Position.z = 0.3 * gl_Position.z - 0.7 * gl_Position.w;',
    )
  }
  material.customProgramCacheKey = () => 'md2-depth-hack'
  ;(material as Material & { vertexNode?: unknown }).vertexNode = Fn(({ renderer }: { renderer: { coordinateSystem: number } }) => {
    const clip = modelViewProjection as Node<'vec4'>
    // WebGPU's depth is z/w in 0…1 (0.3 of it: z' = 0.3 z); WebGL2's as above.
    const z = renderer.coordinateSystem === WebGPUCoordinateSystem ? clip.z.mul(0.3) : clip.z.mul(0.3).sub(clip.w.mul(0.7))
    return vec4(clip.x, clip.y, z, clip.w)
  })()
  material.needsUpdate = true
}
