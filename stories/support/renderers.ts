import type { GLProps } from '@react-three/fiber'
import type { WebGLRendererParameters } from 'three'

/**
 * The three renderers every story and browser test can draw with: three.js's `WebGLRenderer`, and its
 * `WebGPURenderer` on real WebGPU or on its WebGL2 backend (`forceWebGL`).
 */
export type RendererKind = 'webgl' | 'webgpu' | 'webgpu-webgl2'
export const RENDERER_KINDS: readonly RendererKind[] = ['webgl', 'webgpu', 'webgpu-webgl2']

export function isRendererKind(value: unknown): value is RendererKind {
  return typeof value === 'string' && (RENDERER_KINDS as readonly string[]).includes(value)
}

/**
 * The `<Canvas gl>` prop for a renderer: WebGL takes the parameters as they are; WebGPU gets an async
 * factory (R3F 9 awaits it) that loads `three/webgpu` only when asked for, so a WebGL page never
 * creates a WebGPU device and a `webgpu` page never creates a WebGL context.
 */
export function glFor(kind: RendererKind, parameters: WebGLRendererParameters = {}): GLProps {
  if (kind === 'webgl') return parameters
  return async (defaults) => {
    const { WebGPURenderer } = await import('three/webgpu')
    const { preserveDrawingBuffer: _unused, ...rest } = { ...defaults, ...parameters }
    const renderer = new WebGPURenderer({ ...rest, forceWebGL: kind === 'webgpu-webgl2' } as ConstructorParameters<
      typeof WebGPURenderer
    >[0])
    await renderer.init()
    return renderer as never
  }
}
