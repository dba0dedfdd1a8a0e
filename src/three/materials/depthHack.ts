import type { Material } from 'three'
import { webgpuMaterials } from './webgpuMaterials.js'

/**
 * Quake II's RF_DEPTHHACK, `glDepthRange(0, 0.3)`: the view weapon's depth squeezed into the nearest 30% of
 * the range, so it never clips into walls. GLSL for `WebGLRenderer` here; the `WebGPURenderer` side is a TSL
 * `vertexNode` from `react-three-md2/webgpu` (set too when that entry is loaded: each renderer ignores the
 * other's). Returns whether the WebGPU side was set.
 */
export function squeezeDepth(material: Material): boolean {
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
  const webgpu = webgpuMaterials()
  webgpu?.squeezeDepth(material)
  material.needsUpdate = true
  return webgpu !== undefined
}
