import type { Material } from 'three'

/**
 * What the CPU path's materials need of `three/tsl` on `WebGPURenderer`, so that nothing in the main entry
 * imports it: `react-three-md2/webgpu` provides it (a `WebGLRenderer` app needs none of it).
 */
export interface WebGPUMaterialSupport {
  /** Quake II's RF_DEPTHHACK as a TSL `vertexNode`: the depth squeezed into the nearest 30% of the range. */
  squeezeDepth(material: Material): void
  /**
   * Makes a translucent material blend in sRGB, as on `WebGLRenderer` (Quake II's look), where `WebGPURenderer`
   * would blend linear values: while it is transparent with normal blending, from when it is next built.
   */
  blendInSRGB(material: Material): void
}

let provided: WebGPUMaterialSupport | undefined

/** The materials' WebGPU side, or `undefined` where `react-three-md2/webgpu` was not imported. */
export function webgpuMaterials(): WebGPUMaterialSupport | undefined {
  return provided
}

/** Sets what `webgpuMaterials` returns (`undefined`: none). */
export function provideWebGPUMaterials(support: WebGPUMaterialSupport | undefined): void {
  provided = support
}

/** The line a `WebGPURenderer` app adds once, named by every warning about a missing WebGPU side. */
export const WEBGPU_IMPORT = "import 'react-three-md2/webgpu'"
