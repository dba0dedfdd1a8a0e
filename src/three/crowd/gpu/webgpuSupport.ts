import type { InstancedBufferAttribute, InstancedMesh, Material } from 'three'
import type { GpuDecodeInputs, GpuDecodeOptions } from '../../materials/gpuDecodeGLSL.js'
import type { CrowdShaderState } from './CrowdShaderState.js'

/** A crowd's poses blended by a compute pass (`decode: "compute"`), where the renderer drawing it can. */
export interface CrowdComputePass {
  /** Makes the pass's storage for `renderer`, if it is real WebGPU and can bind it (`active` then). */
  prepare(renderer: unknown): void
  /** The first `drawn` rows were written: they are uploaded before the next run. */
  rowsWritten(drawn: number): void
  /** Runs the pass over the first `drawn` rows, once per change of the rows (not again for each shadow-map pass). */
  run(renderer: unknown, drawn: number): void
  /** Whether the pass is in use (its storage made). */
  readonly active: boolean
  /** Frees the pass and its storage on the GPU. */
  dispose(): void
}

/** A crowd drawn from stored rows culled by a compute pass into an indirect draw, where the renderer drawing it can. */
export interface CrowdCullPass {
  /** Makes the pass's storage for `renderer`, if it is real WebGPU. */
  prepare(renderer: unknown): void
  /** Before each draw of `mesh`: through the pass's list when `stored` (drawn from stored rows) and it can; runs it if need be. */
  run(renderer: unknown, mesh: InstancedMesh, stored: boolean): void
  /** Whether the crowd was last drawn through the pass's list. */
  readonly listing: boolean
  /** Frees the pass and its storage on the GPU. */
  dispose(): void
}

/**
 * All the GPU crowd needs of `three/webgpu` and `three/tsl`, so that nothing else in the crowd imports them
 * (an app drawing with `WebGLRenderer` needs none of it).
 */
export interface CrowdWebGPUSupport {
  /**
   * Makes `material` decode the crowd's poses on `WebGPURenderer` (TSL nodes, beside the GLSL `WebGLRenderer`
   * reads), reading them from `computed` where its pass runs.
   */
  decodeInTSL(
    material: Material,
    inputs: GpuDecodeInputs,
    options: GpuDecodeOptions & { computed?: CrowdComputePass; culled?: CrowdCullPass },
  ): void
  /** Instance matrices kept in `array` (16 floats each) as a storage buffer: read on WebGPU without taking a vertex input. */
  createStorageMatrices(array: Float32Array): InstancedBufferAttribute
  /** The compute pass blending a crowd's poses: `rows` are its per-frame rows, `capacity` the most drawn. */
  createComputeDecode(options: { inputs: GpuDecodeInputs; rows: Float32Array; capacity: number; name: string }): CrowdComputePass
  /** The compute pass culling a crowd drawn from stored rows: `rows` its rows, `indexCount` its model's indices. */
  createComputeCull(options: { rows: Float32Array; capacity: number; indexCount: number; state: CrowdShaderState }): CrowdCullPass
}

let provided: CrowdWebGPUSupport | undefined

/**
 * The crowd's WebGPU side, or `undefined` where `react-three-md2/webgpu` was not imported: a crowd made then
 * draws on `WebGLRenderer` only (on `WebGPURenderer` it warns once, naming the import, and draws nothing).
 */
export function webgpuSupport(): CrowdWebGPUSupport | undefined {
  return provided
}

/** Sets what `webgpuSupport` returns to crowds made from now on (`undefined`: none). */
export function provideWebGPUSupport(support: CrowdWebGPUSupport | undefined): void {
  provided = support
}
