/**
 * react-three-md2/webgpu: everything `WebGPURenderer` needs of `three/webgpu` and `three/tsl` (the GPU crowd's
 * TSL decode, storage buffers and compute pass, the view weapon's depth squeeze), kept out of the main entry so
 * that a `WebGLRenderer` app bundles none of it. Importing this module once (`import 'react-three-md2/webgpu'`)
 * provides it to every crowd and view weapon made afterwards.
 */
import { REVISION } from 'three'
import { MD2Error } from '../../core/MD2Error.js'
import { warnOnce } from '../../core/warnOnce.js'
import { provideWebGPUSupport } from '../crowd/gpu/webgpuSupport.js'
import { provideWebGPUMaterials } from '../materials/webgpuMaterials.js'
import { crowdWebGPU } from './crowdWebGPU.js'
import { squeezeDepthTSL } from './depthHackTSL.js'
import { blendInSRGBTSL } from './srgbBlendTSL.js'
import { WEBGPU_MIN_REVISION } from './minRevision.js'

export { WEBGPU_MIN_REVISION } from './minRevision.js'

const revision = Number.parseInt(REVISION, 10)
if (revision >= WEBGPU_MIN_REVISION) {
  provideWebGPUSupport(crowdWebGPU)
  provideWebGPUMaterials({ squeezeDepth: squeezeDepthTSL, blendInSRGB: blendInSRGBTSL })
} else {
  // TSL's node API moved between releases: on an older three the nodes would fail deep inside the renderer.
  const error = new MD2Error(
    'UNSUPPORTED',
    `react-three-md2/webgpu needs three r${WEBGPU_MIN_REVISION} or newer (its three/tsl), and this is r${REVISION}: crowds and view weapons draw on WebGLRenderer only. Update three, or drop the import for a WebGLRenderer app`,
  )
  warnOnce('webgpu-entry-revision', `${error.code}: ${error.message}`)
}
