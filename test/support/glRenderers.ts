/** `WebGLRenderer`s as a crowd meets them (`onBeforeRender`), on software and hardware devices, for Node tests. */

const UNMASKED_RENDERER_WEBGL = 0x9246

/** A `WebGLRenderer` as a crowd meets it, its context naming `device` (as `WEBGL_debug_renderer_info` does). */
export function webglOn(device: string, debugInfo = true): { isWebGPURenderer: false; getContext(): unknown } {
  const gl = {
    RENDERER: 0x1f01,
    getExtension: (name: string) => (debugInfo && name === 'WEBGL_debug_renderer_info' ? { UNMASKED_RENDERER_WEBGL } : null),
    getParameter: (parameter: number) => (parameter === UNMASKED_RENDERER_WEBGL ? device : debugInfo ? 'WebKit WebGL' : device),
  }
  return { isWebGPURenderer: false, getContext: () => gl }
}
export const SWIFTSHADER = 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)'
export const LLVMPIPE = 'llvmpipe (LLVM 15.0.6, 256 bits)'
export const HARDWARE = 'ANGLE (NVIDIA, NVIDIA GeForce RTX 3070 (0x00002484) Direct3D11 vs_5_0 ps_5_0, D3D11)'
