/**
 * three.js's renderers for the benchmark page: WebGLRenderer, WebGPURenderer on real WebGPU, and
 * WebGPURenderer on its WebGL2 backend (`forceWebGL`). Made as a user makes them for R3F
 * (`new WebGPURenderer(props)`, `await renderer.init()`), without the frame mirror the stories add
 * for pixel checks (a copy per frame would be timed). A `webgpu` page refuses to start on anything but
 * a real WebGPU adapter and backend, so a silent fallback cannot pass for it.
 */
import type { GLProps } from '@react-three/fiber'
import type { WebGLRendererParameters } from 'three'
import { WebGPURenderer } from 'three/webgpu'
// The benchmark page draws with WebGPURenderer too: the library's WebGPU side, imported once.
import '../../src/three/webgpu/index'
import type { RendererKind } from './renderer-kinds'

export { RENDERERS, isRendererKind, type RendererKind } from './renderer-kinds'

type DefaultGLProps = Parameters<Extract<GLProps, (props: never) => Promise<unknown>>>[0]
type BenchGl = WebGLRendererParameters | ((props: DefaultGLProps) => Promise<WebGPURenderer>)

/** What drew the page, for the table: backend and, on WebGPU, the adapter. */
export const drawnBy: { backend?: string; adapter?: string } = {}

export function benchGl(kind: RendererKind): BenchGl {
  if (kind === 'webgl') return { antialias: false, powerPreference: 'high-performance' }
  return async (props) => {
    const forceWebGL = kind === 'webgpu-webgl2'
    if (!forceWebGL) {
      if (!navigator.gpu) throw new Error('renderer=webgpu: navigator.gpu is missing (not a secure context, or WebGPU disabled)')
      const adapter = await navigator.gpu.requestAdapter()
      if (!adapter) throw new Error('renderer=webgpu: navigator.gpu.requestAdapter() gave null')
      const { vendor, architecture, device, description } = adapter.info
      drawnBy.adapter = [vendor, architecture, device, description].filter(Boolean).join(' / ')
    }
    const renderer = new WebGPURenderer({
      canvas: props.canvas as HTMLCanvasElement,
      antialias: false,
      powerPreference: 'high-performance',
      forceWebGL,
    })
    await renderer.init()
    const webgpu = (renderer.backend as { isWebGPUBackend?: boolean }).isWebGPUBackend === true
    if (webgpu === forceWebGL) throw new Error(`renderer=${kind}: WebGPURenderer started on the ${webgpu ? 'WebGPU' : 'WebGL2'} backend`)
    drawnBy.backend = webgpu ? 'WebGPURenderer, WebGPU backend' : 'WebGPURenderer, WebGL2 backend'
    return renderer
  }
}

/**
 * Waits for the GPU to finish what the renderer has submitted: a 1-pixel read on WebGL (from the
 * default framebuffer, restoring three's binding), `queue.onSubmittedWorkDone()` on WebGPU.
 */
export function gpuSync(renderer: unknown): () => Promise<void> | void {
  const backend = (renderer as { backend?: { isWebGPUBackend?: boolean; device?: GPUDevice; gl?: WebGL2RenderingContext } }).backend
  if (backend?.isWebGPUBackend) {
    const device = backend.device
    if (!device) throw new Error('WebGPU backend without a device')
    return () => device.queue.onSubmittedWorkDone()
  }
  const gl = backend?.gl ?? (renderer as { getContext(): WebGL2RenderingContext }).getContext()
  const pixel = new Uint8Array(4)
  return () => {
    const bound = gl.getParameter(gl.READ_FRAMEBUFFER_BINDING) as WebGLFramebuffer | null
    if (bound) gl.bindFramebuffer(gl.READ_FRAMEBUFFER, null)
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel)
    if (bound) gl.bindFramebuffer(gl.READ_FRAMEBUFFER, bound)
  }
}
