/**
 * WebGPU in Node for three's `WebGPURenderer`: Dawn's Node bindings (`webgpu` on npm, the WebGPU
 * implementation Chrome uses), the adapter picked here and the few globals three reads.
 *
 * The adapter: the machine's own GPU first (whatever Vulkan/Metal/D3D driver Dawn finds). Failing that,
 * SwiftShader's Vulkan driver, which Debian's chromium package ships
 * (`/usr/lib/chromium/vk_swiftshader_icd.json`): Dawn refuses mesa's lavapipe (it lacks
 * `shaderUniform*ArrayDynamicIndexing`). `VK_ICD_FILENAMES` set by the user is left alone.
 *
 * The globals three's WebGPU backend reads (node_modules/three/src/renderers/webgpu): `GPUBufferUsage`,
 * `GPUTextureUsage`, `GPUMapMode`… (Dawn's `globals`), `navigator.gpu` (the adapter, in
 * `WebGPUBackend.init`) and `self.requestAnimationFrame` (the renderer's `Animation` calls it on the
 * first render; here it stores the callback, which `frame()` runs once per drawn frame, as a browser
 * runs it once per display frame). Nothing else: the bench draws into a `RenderTarget`, so no canvas
 * context is made and the renderer's canvas is a plain object holding its size.
 */
import { existsSync } from 'node:fs'
import { create, globals } from 'webgpu'

/** Where Debian's chromium puts SwiftShader's Vulkan driver manifest. */
export const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json'

export interface NodeWebGPU {
  gpu: GPU
  /** What Dawn says of the adapter: vendor / architecture / device / description. */
  adapter: string
  /** True when no GPU was found and SwiftShader (a CPU Vulkan) draws. */
  software: boolean
  /** Runs the renderer's pending animation-frame callback, once per drawn frame. */
  frame(): void
}

let ready: Promise<NodeWebGPU> | undefined

/** Sets WebGPU up in this process once (the adapter, the globals); throws if no adapter can be had. */
export function nodeWebGPU(): Promise<NodeWebGPU> {
  ready ??= setUp()
  return ready
}

async function setUp(): Promise<NodeWebGPU> {
  const options: GPURequestAdapterOptions = { powerPreference: 'high-performance' }
  let gpu = create([])
  let adapter = await gpu.requestAdapter(options)
  if (!adapter && process.env.VK_ICD_FILENAMES === undefined && existsSync(SWIFTSHADER_ICD)) {
    // The Vulkan loader reads this when Dawn makes its instance: a new one sees only SwiftShader.
    process.env.VK_ICD_FILENAMES = SWIFTSHADER_ICD
    gpu = create([])
    adapter = await gpu.requestAdapter(options)
  }
  if (!adapter)
    throw new Error(
      `WebGPU in Node: Dawn found no adapter (no GPU driver it accepts${existsSync(SWIFTSHADER_ICD) ? '' : `, and no SwiftShader at ${SWIFTSHADER_ICD}: install Debian's chromium package, or point VK_ICD_FILENAMES at a Vulkan driver's manifest`})`,
    )
  const info = adapter.info
  const software = info.architecture === 'swiftshader' || /swiftshader/i.test(info.description)
  Object.assign(globalThis, globals)
  // Node 21+ has a navigator of its own (without gpu); Node 20 has none.
  const scope = globalThis as { navigator?: object; self?: object }
  if (scope.navigator) Object.defineProperty(scope.navigator, 'gpu', { value: gpu, configurable: true })
  else scope.navigator = { gpu }
  let pending: FrameRequestCallback | undefined
  scope.self ??= {
    requestAnimationFrame(callback: FrameRequestCallback): number {
      pending = callback
      return 1
    },
    cancelAnimationFrame(): void {
      pending = undefined
    },
  }
  return {
    gpu,
    adapter: [info.vendor, info.architecture, info.device, info.description].filter(Boolean).join(' / '),
    software,
    frame() {
      const callback = pending
      pending = undefined
      callback?.(performance.now())
    },
  }
}
