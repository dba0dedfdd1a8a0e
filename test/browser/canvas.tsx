/** A real R3F canvas in the test page, mounted with react-dom, for plain browser tests. */
import { Canvas, useFrame, useThree, type RootState } from '@react-three/fiber'
import { StrictMode, Suspense, type ReactNode } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { PCFShadowMap, type WebGLRenderer } from 'three'
import { canvasGl, type MirroredCanvas, type RendererKind } from '../../stories/support/renderers'
import { afterEach, expect } from 'vitest'
import { coverage, difference, findStage, hexToRgb, type Picture, type StageProbe } from '../../stories/support/pixels'
import { MD2Crowd } from '../../src/three/crowd/MD2Crowd'

export const BLACK = hexToRgb('#000000')
export const TIMEOUT = 60_000

export interface Mounted {
  root: Root
  host: HTMLDivElement
  stage: StageProbe
  renderer: WebGLRenderer
  render(children: ReactNode): void
}

const mounted: Mounted[] = []

afterEach(() => {
  for (const { root, host } of mounted.splice(0)) {
    root.unmount()
    host.remove()
  }
})

/** A `width` × `height` element in the page with a React root in it. */
export function openHost(width: number, height: number): { host: HTMLDivElement; root: Root } {
  const host = document.createElement('div')
  host.style.cssText = `width: ${width}px; height: ${height}px`
  document.body.append(host)
  return { host, root: createRoot(host) }
}

/** A 400×300 R3F canvas in `<StrictMode>` with a black background, flat colours, no antialiasing (shadow maps, a stencil buffer when asked). */
export async function mount(
  children: ReactNode,
  { antialias = false, shadows = false, stencil = false, renderer = 'webgl' as RendererKind } = {},
): Promise<Mounted> {
  const { host, root } = openHost(400, 300)
  let state: RootState | undefined
  // In <StrictMode>, as create-vite and Next.js apps render theirs: effects are cleaned up and run again on mount.
  const render = (scene: ReactNode) =>
    root.render(
      <StrictMode>
        <Canvas
          flat
          // PCF: R3F's default (PCFSoftShadowMap) is gone from three r18x, which warns of it.
          shadows={shadows ? 'percentage' : { enabled: false, type: PCFShadowMap }}
          dpr={1}
          gl={canvasGl(renderer, { antialias, stencil })}
          camera={{ position: [0, 2, 100], fov: 50, near: 1, far: 1000 }}
          onCreated={(created) => {
            state = created
          }}
        >
          <color attach="background" args={['#000000']} />
          <ambientLight intensity={2} />
          <Suspense fallback={null}>{scene}</Suspense>
        </Canvas>
      </StrictMode>,
    )
  render(children)
  const stage = await findStage(host, TIMEOUT, BLACK)
  await waitUntil(() => state !== undefined, 'the R3F root to be created')
  // R3F sizes the canvas to its host a few frames in: a picture read before then has another size.
  await waitUntil(() => stage.canvas.width === 400 && stage.canvas.height === 300, 'the canvas to take its 400×300 size')
  const entry: Mounted = { root, host, stage, renderer: state!.gl, render }
  mounted.push(entry)
  return entry
}

export async function waitUntil(condition: () => boolean, what: string, timeout = TIMEOUT): Promise<void> {
  const deadline = performance.now() + timeout
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => requestAnimationFrame(resolve))
  }
}

/** The canvas was drawn by the renderer asked for: on `webgpu`, real WebGPU on a real adapter, not a fallback. */
export async function expectRenderer(canvas: HTMLCanvasElement, kind: RendererKind): Promise<void> {
  const info = (canvas as MirroredCanvas).md2Renderer
  if (kind === 'webgl') {
    if (info) throw new Error(`asked for WebGLRenderer, drawn by ${info.backend}`)
    return
  }
  if (!info || info.kind !== kind) throw new Error(`asked for ${kind}, drawn by ${info?.backend ?? 'WebGLRenderer'}`)
  if (kind === 'webgpu' && (info.backend !== 'WebGPU' || !info.adapter || !/swiftshader|\w+\/\w+/.test(info.adapter)))
    throw new Error(`asked for WebGPU, drawn by ${info.backend} on adapter ${info.adapter ?? 'none'}`)
}

/** Whether this browser's WebGL draws in software (SwiftShader here; llvmpipe elsewhere), read from a context of its own. */
export function drawsInSoftware(): boolean {
  const gl = document.createElement('canvas').getContext('webgl2')
  const info = gl?.getExtension('WEBGL_debug_renderer_info')
  return Boolean(gl && info && /swiftshader|llvmpipe|softpipe|software/i.test(String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL))))
}

/** Keeps `into` listing the crowds in the scene (each frame, as a test reads them after a settled picture). */
export function CrowdsIn({ into }: { into: MD2Crowd[] }) {
  const scene = useThree((state) => state.scene)
  useFrame(() => {
    into.length = 0
    scene.traverse((object) => {
      if (object instanceof MD2Crowd) into.push(object)
    })
  })
  return null
}

/**
 * The pictures of two scenes drawn one after the other on a mounted canvas: the one mounted, then `next`,
 * with an empty canvas seen in between so that no frame of the first is taken for the second. Each is
 * waited for until more than `share` of it is drawn over the black background.
 */
export async function picturesOf(
  { stage, render }: Pick<Mounted, 'stage' | 'render'>,
  next: ReactNode,
  [first, second]: [string, string],
  share = 0.05,
): Promise<[Picture, Picture]> {
  const drawn = (p: Picture) => coverage(p, undefined, BLACK) > share
  const before = await stage.settle(drawn, first)
  render(<></>)
  await stage.settle((p) => coverage(p, undefined, BLACK) === 0, 'an empty canvas')
  render(next)
  return [before, await stage.settle(drawn, second)]
}

/** Pixels of `picture` drawn over the black background. */
export function drawnPixels(picture: Picture): number {
  return coverage(picture, undefined, BLACK) * picture.width * picture.height
}

/** Draws of one scene by two paths: the same picture but for a handful of pixels where float rounding moves an edge by a hair. */
export function expectSamePicture(expected: Picture, actual: Picture): void {
  const drawn = drawnPixels(expected)
  const differing = difference(expected, actual)
  expect(drawn).toBeGreaterThan(5000)
  expect(differing, `${differing} of ${Math.round(drawn)} drawn pixels differ`).toBeLessThanOrEqual(Math.max(12, drawn * 0.002))
}

/**
 * Looks down on the scene, so that blob shadows on the floor show: set before every frame, as R3F
 * places its default camera itself when the canvas is made and sized.
 */
export function LookingDown() {
  useFrame(({ camera }) => {
    camera.position.set(0, 70, 80)
    camera.lookAt(0, -20, 0)
    camera.updateMatrixWorld()
  })
  return null
}
