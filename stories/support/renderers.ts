import type { GLProps } from '@react-three/fiber'
import { createContext, useContext } from 'react'
import type { WebGLRendererParameters } from 'three'
import { WebGPURenderer } from 'three/webgpu'
// The stories are an app that draws with WebGPURenderer too: it imports the library's WebGPU side once.
import '../../src/three/webgpu/index'

/**
 * three.js's renderers, as the Storybook toolbar's `renderer` global and the browser tests name them:
 * `WebGLRenderer`, `WebGPURenderer` on real WebGPU, and `WebGPURenderer` on its WebGL2 backend.
 */
export const RENDERER_KINDS = ['webgl', 'webgpu', 'webgpu-webgl2'] as const
export type RendererKind = (typeof RENDERER_KINDS)[number]

export function isRendererKind(value: unknown): value is RendererKind {
  return typeof value === 'string' && (RENDERER_KINDS as readonly string[]).includes(value)
}

/** What drew a canvas: the renderer, its backend and, on WebGPU, the adapter (`google/swiftshader` here). */
export interface RendererInfo {
  kind: RendererKind
  backend: 'WebGL' | 'WebGPU' | 'WebGL2 (WebGPURenderer)'
  adapter?: string
}

/** A canvas drawn by WebGPURenderer carries a copy of its last frame (see `mirrorFrames`). */
export interface MirroredCanvas extends HTMLCanvasElement {
  md2Mirror?: HTMLCanvasElement
  md2Renderer?: RendererInfo
}

type DefaultGLProps = Parameters<Extract<GLProps, (props: never) => Promise<unknown>>>[0]
type CanvasGl = WebGLRendererParameters | ((props: DefaultGLProps) => Promise<WebGPURenderer>)

/**
 * The `<Canvas gl>` for a renderer. WebGL keeps its drawing buffer for pixel reads; WebGPURenderer is made
 * as a user makes it (`new WebGPURenderer(props)`, `await init()`), and refuses to start on anything but
 * a real WebGPU adapter when `webgpu` is asked for, so a silent fallback cannot pass for it.
 */
export function canvasGl(kind: RendererKind, { antialias = true, stencil = false } = {}): CanvasGl {
  if (kind === 'webgl') return { preserveDrawingBuffer: true, antialias, stencil }
  return async (props) => {
    const forceWebGL = kind === 'webgpu-webgl2'
    const canvas = props.canvas as MirroredCanvas
    // Marked before three marks it (`data-engine`), so `findStage` waits for a first frame copied.
    canvas.md2Renderer = { kind, backend: forceWebGL ? 'WebGL2 (WebGPURenderer)' : 'WebGPU' }
    let adapter: string | undefined
    if (!forceWebGL) {
      const found = await navigator.gpu?.requestAdapter()
      if (!found) throw new Error('renderer=webgpu: this browser has no WebGPU adapter (navigator.gpu.requestAdapter() gave null)')
      adapter = `${found.info.vendor}/${found.info.architecture}`
    }
    const { canvas: element, alpha, depth, powerPreference } = props
    const renderer = new WebGPURenderer({
      canvas: element as HTMLCanvasElement,
      alpha,
      depth,
      powerPreference: powerPreference === 'default' ? undefined : powerPreference,
      antialias,
      stencil,
      forceWebGL,
    })
    await renderer.init()
    const backend = (renderer.backend as { isWebGPUBackend?: boolean }).isWebGPUBackend === true
    if (backend === forceWebGL) throw new Error(`renderer=${kind}: WebGPURenderer started on the ${backend ? 'WebGPU' : 'WebGL2'} backend`)
    canvas.md2Renderer = { kind, backend: backend ? 'WebGPU' : 'WebGL2 (WebGPURenderer)', adapter }
    mirrorFrames(renderer, canvas)
    return renderer
  }
}

/**
 * A WebGPU canvas (and WebGPURenderer's WebGL2 one, made without `preserveDrawingBuffer`) can be read
 * only in the task that drew it: copy every frame into a 2D canvas as it is drawn, for pixel checks.
 */
function mirrorFrames(renderer: WebGPURenderer, canvas: MirroredCanvas): void {
  const mirror = document.createElement('canvas')
  const context = mirror.getContext('2d', { willReadFrequently: true })
  if (!context) throw new Error('no 2D context for the frame mirror')
  const staging = document.createElement('canvas')
  const stagingContext = staging.getContext('2d', { willReadFrequently: true })!
  const render = renderer.render.bind(renderer)
  renderer.render = (scene, camera) => {
    const result = render(scene, camera)
    const { width, height } = canvas
    if (staging.width !== width || staging.height !== height) Object.assign(staging, { width, height })
    stagingContext.clearRect(0, 0, width, height)
    stagingContext.drawImage(canvas, 0, 0)
    // A frame the canvas gave back empty (no background even: it had not shown a frame yet) is not one.
    if (stagingContext.getImageData(0, 0, 1, 1).data[3] === 0) return result
    if (mirror.width !== width || mirror.height !== height) Object.assign(mirror, { width, height })
    context.clearRect(0, 0, width, height)
    context.drawImage(staging, 0, 0)
    // Readable from the first frame drawn on (`findStage` waits for it).
    canvas.md2Mirror = mirror
    return result
  }
}

/** The Storybook toolbar's `renderer` global, for stories that bring their own `<Canvas>`. */
export const StoryRenderer = createContext<RendererKind>('webgl')

/** The renderer the toolbar (or `&globals=renderer:…` in the URL) asks for. */
export function useStoryRenderer(): RendererKind {
  return useContext(StoryRenderer)
}
