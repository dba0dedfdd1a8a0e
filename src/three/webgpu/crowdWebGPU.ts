import { StorageInstancedBufferAttribute } from 'three/webgpu'
import { decodeInTSL } from './gpuDecodeTSL.js'
import { CrowdComputeCull } from './CrowdComputeCull.js'
import { CrowdComputeDecode } from './CrowdComputeDecode.js'
import type { CrowdWebGPUSupport } from '../crowd/gpu/webgpuSupport.js'

/** The crowd's WebGPU side (`webgpuSupport`): the TSL decode, storage matrices and the compute passes. */
export const crowdWebGPU: CrowdWebGPUSupport = {
  decodeInTSL(material, inputs, options) {
    // The only passes there are: the ones this object made.
    const computed = options.computed instanceof CrowdComputeDecode ? options.computed : undefined
    const culled = options.culled instanceof CrowdComputeCull ? options.culled : undefined
    // The cull pass poses the instances it lists by the model's frames, which it learns here.
    culled?.decodes(inputs)
    decodeInTSL(material, inputs, { ...options, computed, culled })
  },
  createStorageMatrices: (array) => new StorageInstancedBufferAttribute(array, 16),
  createComputeDecode: (options) => new CrowdComputeDecode(options),
  createComputeCull: (options) => new CrowdComputeCull(options),
}
