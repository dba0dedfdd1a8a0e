import type { MirroredCanvas } from './renderers'
import { BACKGROUND } from './Stage'

/**
 * Pixel checks for play functions and browser tests: read the WebGL canvas (the stage uses `preserveDrawingBuffer`
 * and `flat`, so colours are exact) and wait for conditions, never for fixed sleeps. Generous
 * deadlines: software WebGL (SwiftShader) on two cores is slow.
 */

export interface Picture {
  width: number
  height: number
  data: Uint8ClampedArray
}

/** A part of the canvas, in fractions of its size (0–1). */
export interface Region {
  left?: number
  right?: number
  top?: number
  bottom?: number
}

export const DEFAULT_TIMEOUT = 60_000
/** Channel difference below which a pixel still counts as background (rounding, dithering). */
const BACKGROUND_TOLERANCE = 6

const background = hexToRgb(BACKGROUND)

export type RGB = [number, number, number]

export function hexToRgb(hex: string): RGB {
  const value = Number.parseInt(hex.slice(1), 16)
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255]
}

function bounds(picture: Picture, region: Region = {}) {
  const x0 = Math.floor((region.left ?? 0) * picture.width)
  const x1 = Math.ceil((region.right ?? 1) * picture.width)
  const y0 = Math.floor((region.top ?? 0) * picture.height)
  const y1 = Math.ceil((region.bottom ?? 1) * picture.height)
  return { x0, x1, y0, y1, count: Math.max(0, x1 - x0) * Math.max(0, y1 - y0) }
}

/** Share (0–1) of the region's pixels that differ from the background colour. */
export function coverage(picture: Picture, region?: Region, bg: RGB = background): number {
  const { x0, x1, y0, y1, count } = bounds(picture, region)
  const { data, width } = picture
  let drawn = 0
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * width + x) * 4
      if (
        Math.abs(data[i]! - bg[0]) > BACKGROUND_TOLERANCE ||
        Math.abs(data[i + 1]! - bg[1]) > BACKGROUND_TOLERANCE ||
        Math.abs(data[i + 2]! - bg[2]) > BACKGROUND_TOLERANCE
      ) {
        drawn++
      }
    }
  }
  return count === 0 ? 0 : drawn / count
}

/**
 * Number of pixels in the region that differ between two pictures of one canvas: in any channel by more
 * than `tolerance` levels (0: at all).
 */
export function difference(a: Picture, b: Picture, region?: Region, tolerance = 0): number {
  if (a.width !== b.width || a.height !== b.height) return a.width * a.height
  const { x0, x1, y0, y1 } = bounds(a, region)
  let changed = 0
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * a.width + x) * 4
      if (
        Math.abs(a.data[i]! - b.data[i]!) > tolerance ||
        Math.abs(a.data[i + 1]! - b.data[i + 1]!) > tolerance ||
        Math.abs(a.data[i + 2]! - b.data[i + 2]!) > tolerance
      )
        changed++
    }
  }
  return changed
}

function animationFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => resolve()))
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** The R3F canvas inside a story, once R3F has created its WebGL context (`data-engine`). */
export async function findStage(root: HTMLElement, timeout = DEFAULT_TIMEOUT, bg: RGB = background): Promise<StageProbe> {
  const deadline = performance.now() + timeout
  for (;;) {
    // Never call getContext before R3F has: that would lock in default context attributes.
    const canvas = root.querySelector<HTMLCanvasElement & MirroredCanvas>('canvas[data-engine]')
    // WebGPURenderer's canvases are read once a first frame is copied (stories/support/renderers.ts).
    const drawn = canvas !== null && (canvas.md2Renderer === undefined || canvas.md2Mirror !== undefined)
    if (canvas && drawn && canvas.width > 0 && canvas.height > 0) return new StageProbe(canvas, bg)
    if (performance.now() > deadline) throw new Error(`no canvas[data-engine] appeared within ${timeout} ms`)
    await delay(50)
  }
}

export class StageProbe {
  private readonly reader = document.createElement('canvas')
  /** The share of the canvas the model covered when `expectModel` last saw it (0: not yet). */
  private modelShare = 0

  constructor(
    readonly canvas: HTMLCanvasElement,
    /** The scene's background colour. */
    readonly background: RGB = background,
  ) {}

  /** The canvas as it was last drawn. */
  read(): Picture {
    const { width, height } = this.canvas
    if (this.reader.width !== width) this.reader.width = width
    if (this.reader.height !== height) this.reader.height = height
    const context = this.reader.getContext('2d', { willReadFrequently: true })
    if (!context) throw new Error('no 2D context to read the WebGL canvas with')
    context.clearRect(0, 0, width, height)
    // WebGPURenderer's canvases are read from the copy of their last frame (stories/support/renderers.ts).
    context.drawImage((this.canvas as MirroredCanvas).md2Mirror ?? this.canvas, 0, 0)
    return { width, height, data: context.getImageData(0, 0, width, height).data }
  }

  /** Waits for the browser to draw at least `frames` more frames, then reads the canvas. */
  async next(frames = 2): Promise<Picture> {
    for (let i = 0; i < frames; i++) await animationFrame()
    return this.read()
  }

  /**
   * Waits until a picture satisfies `accept` and the next frame shows exactly the same picture
   * (a still scene has settled: textures loaded, Suspense resolved). Returns that picture.
   */
  async settle(accept: (picture: Picture) => boolean, what: string, timeout = DEFAULT_TIMEOUT): Promise<Picture> {
    const deadline = performance.now() + timeout
    let previous: Picture | undefined
    for (;;) {
      const picture = await this.next()
      if (accept(picture) && previous && difference(previous, picture) === 0) return picture
      previous = accept(picture) ? picture : undefined
      if (performance.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what}`)
    }
  }

  /**
   * `settle`, counting only pictures that show the model: at least half the share of the canvas it covered
   * when `expectModel` last saw it. Just after a new skin, weapon or material, a renderer may draw a frame or
   * two without it, and an empty canvas is still too.
   */
  async settleDrawn(accept: (picture: Picture) => boolean, what: string, timeout = DEFAULT_TIMEOUT): Promise<Picture> {
    const least = this.modelShare / 2
    check(least > 0, `settleDrawn waits for the model as expectModel saw it: call expectModel first (waiting for ${what})`)
    return this.settle((picture) => coverage(picture, undefined, this.background) >= least && accept(picture), what, timeout)
  }

  /** Waits until a picture satisfies `accept` (no stability needed: the scene may be moving). */
  async until(accept: (picture: Picture) => boolean, what: string, timeout = DEFAULT_TIMEOUT): Promise<Picture> {
    const deadline = performance.now() + timeout
    for (;;) {
      const picture = await this.next(1)
      if (accept(picture)) return picture
      if (performance.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what}`)
    }
  }

  /** The model is drawn: a meaningful share of the region differs from the background. */
  async expectModel(region?: Region, minShare = 0.004): Promise<Picture> {
    let last = 0
    const picture = await this.until(
      (p) => (last = coverage(p, region, this.background)) >= minShare,
      `a model to be drawn (${describe(region)}; ${pct(last)} of pixels so far, want ${pct(minShare)})`,
    )
    // The corners show the background colour exactly (flat, no tone mapping).
    expectBackgroundAt(picture, 0, 0, this.background)
    this.modelShare = coverage(picture, undefined, this.background)
    return picture
  }

  /** Animated: the picture changes between frames (by more than a few pixels). */
  async expectAnimated(region?: Region, minPixels = 20): Promise<void> {
    const first = await this.next()
    await this.until((p) => difference(first, p, region) > minPixels, `the picture to change (${describe(region)})`)
  }

  /** Still: over many drawn frames and at least `ms`, not one pixel changes. */
  async expectStill(region?: Region, frames = 20, ms = 600): Promise<Picture> {
    const first = await this.next()
    const started = performance.now()
    let last = first
    for (let i = 0; i < frames || performance.now() - started < ms; i++) {
      last = await this.next(1)
      const changed = difference(first, last, region)
      check(changed === 0, `${changed} pixels changed in a still scene (${describe(region)}) after ${i + 1} frames`)
    }
    return last
  }
}

function expectBackgroundAt(picture: Picture, x: number, y: number, bg: RGB): void {
  const i = (y * picture.width + x) * 4
  const pixel = [picture.data[i]!, picture.data[i + 1]!, picture.data[i + 2]!]
  const exact = pixel.every((value, c) => Math.abs(value - bg[c]!) <= 2)
  check(
    exact,
    `the corner pixel is ${pixel.join(',')} (alpha ${picture.data[i + 3]}, ${picture.width}×${picture.height}), not the background (${bg.join(',')})`,
  )
}

/** Play functions and plain browser tests both use these checks: fail with a plain Error. */
export function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message)
}

function describe(region?: Region): string {
  if (!region) return 'whole canvas'
  return `x ${region.left ?? 0}–${region.right ?? 1}, y ${region.top ?? 0}–${region.bottom ?? 1}`
}

function pct(share: number): string {
  return `${(share * 100).toFixed(2)}%`
}
