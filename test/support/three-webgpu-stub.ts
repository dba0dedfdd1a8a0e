/**
 * `three/webgpu` and `three/tsl` for a test run on a three.js that has neither (older than react-three-md2/webgpu's
 * floor): vitest.config.ts points both here. Each name the WebGPU entry, the stories' and benchmark's renderer
 * support and the tests import exists, so that their modules load (the entry then warns UNSUPPORTED and provides
 * nothing); calling, constructing or reading one throws, so a test that needs WebGPU and was not left out fails loudly.
 */
import { REVISION } from 'three'
import { WEBGPU_MIN_REVISION } from '../../src/three/webgpu/minRevision'

function missing(name: string): () => never {
  const fail = (): never => {
    throw new Error(
      `${name}: three r${REVISION} has no three/webgpu or three/tsl (react-three-md2/webgpu needs r${WEBGPU_MIN_REVISION}); ` +
        'this test run leaves WebGPU out (vitest.config.ts), so whatever used it should have been skipped',
    )
  }
  // TSL's names are functions and nodes (`instanceIndex.mul(…)`): calling, constructing or reading one throws.
  // Symbols and `then` stay readable, for the module loader and anything that checks for a promise.
  return new Proxy(function stub() {} as () => never, {
    apply: fail,
    construct: fail,
    get: (target, key) => (typeof key === 'symbol' || key === 'then' ? Reflect.get(target, key) : fail()),
  })
}

// three/webgpu
export const WebGPURenderer = missing('WebGPURenderer')
export const StorageBufferAttribute = missing('StorageBufferAttribute')
export const IndirectStorageBufferAttribute = missing('IndirectStorageBufferAttribute')
export const StorageInstancedBufferAttribute = missing('StorageInstancedBufferAttribute')
export const NodeUpdateType = missing('NodeUpdateType')
export const ViewportTextureNode = missing('ViewportTextureNode')
export const RenderTarget = missing('RenderTarget')

// three/tsl
export const atomicAdd = missing('atomicAdd')
export const atan = missing('atan')
export const modelWorldMatrix = missing('modelWorldMatrix')
export const float = missing('float')
export const texture = missing('texture')
export const textureSize = missing('textureSize')
export const vec2 = missing('vec2')
export const Fn = missing('Fn')
export const If = missing('If')
export const attribute = missing('attribute')
export const clamp = missing('clamp')
export const instanceIndex = missing('instanceIndex')
export const instancedDynamicBufferAttribute = missing('instancedDynamicBufferAttribute')
export const int = missing('int')
export const ivec2 = missing('ivec2')
export const mat4 = missing('mat4')
export const materialColor = missing('materialColor')
export const mix = missing('mix')
export const modelViewProjection = missing('modelViewProjection')
export const normalLocal = missing('normalLocal')
export const positionGeometry = missing('positionGeometry')
export const pow = missing('pow')
export const select = missing('select')
export const storage = missing('storage')
export const textureLoad = missing('textureLoad')
export const transformNormal = missing('transformNormal')
export const uniform = missing('uniform')
export const varying = missing('varying')
export const vec3 = missing('vec3')
export const vec4 = missing('vec4')
export const acesFilmicToneMapping = missing('acesFilmicToneMapping')
export const cineonToneMapping = missing('cineonToneMapping')
export const dot = missing('dot')
export const linearToneMapping = missing('linearToneMapping')
export const mat3 = missing('mat3')
export const output = missing('output')
export const reinhardToneMapping = missing('reinhardToneMapping')
export const sRGBTransferEOTF = missing('sRGBTransferEOTF')
export const sRGBTransferOETF = missing('sRGBTransferOETF')
export const screenUV = missing('screenUV')
export const toneMappingExposure = missing('toneMappingExposure')
