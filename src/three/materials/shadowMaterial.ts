import { EqualStencilFunc, IncrementStencilOp, MeshBasicMaterial } from 'three'
import { webgpuMaterials } from './webgpuMaterials.js'

/**
 * Quake II's blob shadow (GL_DrawAliasShadow): black at alpha 0.5, blended in sRGB on either renderer, each
 * pixel darkened once where the canvas has a stencil buffer (the stencil counts the pixels already darkened).
 */
export function createMD2ShadowMaterial(): MeshBasicMaterial {
  const material = new MeshBasicMaterial({
    color: 0x000000,
    transparent: true,
    opacity: 0.5,
    depthWrite: false,
    stencilWrite: true,
    stencilRef: 0,
    stencilFunc: EqualStencilFunc,
    stencilZPass: IncrementStencilOp,
  })
  webgpuMaterials()?.blendInSRGB(material)
  return material
}
