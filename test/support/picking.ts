/**
 * A picking pass for tests: the scene drawn again, each crowd instance in a colour naming it, every other mesh
 * in one colour (`FLOOR` for the meshes named `floor`, `OTHER` for the rest), into a render target read back.
 * The crowds are drawn by their own GPU decode, GLSL or TSL (the rows they were drawn from, the same pose,
 * culling and matrices), each row's light (rgb) the colour naming its instance for the pass, as a shell layer
 * colours its instances: what the picture shows is what the picture names.
 */
import {
  Color,
  Mesh,
  MeshBasicMaterial,
  WebGLRenderTarget,
  type Camera,
  type Material,
  type Object3D,
  type PerspectiveCamera,
  type Scene,
  Vector2,
  type WebGLRenderer,
} from 'three'
import { RenderTarget, type WebGPURenderer } from 'three/webgpu'
import { crowdParts } from '../../src/three/crowd/crowdParts'
import { INSTANCE_STRIDE, LIGHT } from '../../src/three/crowd/gpu/instanceRows'
import { drawWithGpuFrames, type MD2GpuFrames } from '../../src/three/crowd/gpu/gpuFrames'
import type { CrowdRenderer } from '../../src/three/crowd/gpu/CrowdRenderer'
import { MD2CrowdBase } from '../../src/three/crowd/MD2CrowdBase'

/** What a pixel of the picking picture names: nothing drawn, a mesh named `floor`, another mesh, or a crowd instance. */
export const NOTHING = -1
export const FLOOR = -2
export const OTHER = -3

/**
 * Ids in 4 bits a channel, each in the middle of its 16 levels: a level or two of rounding in the interpolated
 * colour reads back the same id. 0 is nothing; the top two are the floor and the other meshes.
 */
const ID_FLOOR = 4095
const ID_OTHER = 4094
/** Set in the ids of a follower's instances (a weapon): the same instance, told apart for the report. */
const FOLLOWER_BIT = 2048
const encode = (id: number, into: Color) =>
  into.setRGB((((id & 15) << 4) + 8) / 255, ((((id >> 4) & 15) << 4) + 8) / 255, ((((id >> 8) & 15) << 4) + 8) / 255)
const decode = (r: number, g: number, b: number) => (r >> 4) | ((g >> 4) << 4) | ((b >> 4) << 8)

export interface PickPicture {
  width: number
  height: number
  /** Per canvas pixel (row 0 at the top): `NOTHING`, `FLOOR`, `OTHER`, or the instance drawn there. */
  ids: Int32Array
  /** Per canvas pixel: 1 where the instance's follower (its weapon) is drawn, else 0. */
  followers: Uint8Array
}

const scratch = new Color()

/** A renderer either kind: `WebGLRenderer`, or `WebGPURenderer` on its WebGPU backend (the picture read back top row first). */
type AnyRenderer = WebGLRenderer | WebGPURenderer

/**
 * Writes into each drawn row's light (rgb) the colour naming the instance it draws, and returns the rows as they
 * were: from stored rows, row `i` is instance `i`'s; from posed rows, row `k` is the `k`th listed instance's.
 */
function nameRows(crowd: MD2CrowdBase, follower: boolean): () => void {
  const parts = crowdParts.get(crowd)!
  const rows = parts.data.array as Float32Array
  const kept = rows.slice()
  const stored = parts.rows.isStored
  for (let k = 0; k < crowd.count; k++) {
    const i = stored ? k : parts.instances.ids[k]!
    encode((i + 1) | (follower ? FOLLOWER_BIT : 0), scratch)
    rows[k * INSTANCE_STRIDE + LIGHT] = scratch.r
    rows[k * INSTANCE_STRIDE + LIGHT + 1] = scratch.g
    rows[k * INSTANCE_STRIDE + LIGHT + 2] = scratch.b
  }
  const upload = () => {
    // The whole buffer again (not the ranges of the last frame's rows).
    parts.data.updateRanges.length = 0
    parts.data.needsUpdate = true
  }
  upload()
  return () => {
    rows.set(kept)
    upload()
  }
}

const pickMaterials = new WeakMap<MD2CrowdBase, Material>()

/** An unlit material drawing `crowd` by its own decode (either renderer's), each instance in its row's light as a flat colour. */
function pickMaterial(crowd: MD2CrowdBase): Material {
  let material = pickMaterials.get(crowd)
  if (!material) {
    const inner = crowd as unknown as { frames: MD2GpuFrames; renderer: CrowdRenderer }
    const renderer = inner.renderer
    material = drawWithGpuFrames(new MeshBasicMaterial({ color: 0xffffff }), inner.frames, {
      state: renderer.state,
      webgpu: renderer.webgpu,
      computed: renderer.computed,
      // Its instances read from their own rows, each draw slot a row (`pickPicture` turns the cull pass's list off).
      culled: undefined,
      instanceColor: true,
    })
    pickMaterials.set(crowd, material)
  }
  return material
}

/**
 * Draws `scene` from `camera` as ids, as it was last drawn (the caller keeps frames from being drawn until the
 * picture is read back): returns the picture, row 0 at the top.
 */
export async function pickPicture(gl: AnyRenderer, scene: Scene, camera: Camera): Promise<PickPicture> {
  const size = gl.getDrawingBufferSize(new Vector2())
  const width = size.x
  const height = size.y
  const webgpu = 'isWebGPURenderer' in gl
  const target = webgpu ? new RenderTarget(width, height, { depthBuffer: true }) : new WebGLRenderTarget(width, height)
  const floor = new MeshBasicMaterial({ color: encode(ID_FLOOR, new Color()) })
  const other = new MeshBasicMaterial({ color: encode(ID_OTHER, new Color()) })
  const undo: (() => void)[] = []
  scene.traverse((object: Object3D) => {
    if (object instanceof MD2CrowdBase) {
      const material = object.material
      undo.push(nameRows(object, object.leader !== undefined))
      // WebGPU's cull pass draws the instances it lists, each reading its own row's light: the pass is drawn as the
      // vertex stage culls (every row, slot k row k), the same instances in view, for this picture.
      const culled = (object as unknown as { renderer: CrowdRenderer }).renderer.culled as { off?: boolean } | undefined
      if (culled && 'off' in culled) {
        const was = culled.off
        culled.off = true
        undo.push(() => (culled.off = was))
      }
      object.material = pickMaterial(object)
      undo.push(() => (object.material = material))
    } else if (object instanceof Mesh && !(object.parent instanceof MD2CrowdBase)) {
      const material = object.material
      object.material = object.name === 'floor' ? floor : other
      undo.push(() => (object.material = material))
    } else if (object.parent instanceof MD2CrowdBase && object instanceof Mesh && object.visible) {
      // A crowd's shells and shadows are looks, not the instance.
      object.visible = false
      undo.push(() => (object.visible = true))
    }
  })
  const background = scene.background
  scene.background = null
  const clear = gl.getClearColor(new Color())
  const alpha = gl.getClearAlpha()
  const before = gl.getRenderTarget()
  gl.setClearColor(0x000000, 1)
  gl.setRenderTarget(target as never)
  gl.clear()
  // Chrome gives a click's offsetX and offsetY in whole CSS pixels, so R3F's ray goes through a pixel's corner, never
  // its centre: the pass is drawn half a pixel up and to the left, each of its pixels sampled at the corner that a
  // click at it (`clickAt`) meets. (A centre and a corner see different things where a feature is under a pixel wide.)
  const view = camera as PerspectiveCamera
  if (gl.getPixelRatio() !== 1 || typeof view.setViewOffset !== 'function')
    throw new Error('pickPicture: a perspective camera and a pixel ratio of 1 (a click is in CSS pixels)')
  view.setViewOffset(width, height, -0.5, -0.5, width, height)
  gl.render(scene, camera)
  view.clearViewOffset()
  let pixels: Uint8Array
  if (webgpu)
    pixels = new Uint8Array(((await gl.readRenderTargetPixelsAsync(target as RenderTarget, 0, 0, width, height)) as Uint8Array).buffer)
  else {
    pixels = new Uint8Array(width * height * 4)
    gl.readRenderTargetPixels(target as WebGLRenderTarget, 0, 0, width, height, pixels)
  }
  gl.setRenderTarget(before as never)
  gl.setClearColor(clear, alpha)
  scene.background = background
  for (const step of undo.reverse()) step()
  target.dispose()
  floor.dispose()
  other.dispose()
  const ids = new Int32Array(width * height)
  const followers = new Uint8Array(width * height)
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      // WebGL reads the bottom row first, WebGPU the top.
      const o = ((webgpu ? y : height - 1 - y) * width + x) * 4
      let id = decode(pixels[o]!, pixels[o + 1]!, pixels[o + 2]!)
      if (id < ID_OTHER && id & FOLLOWER_BIT) {
        followers[y * width + x] = 1
        id &= ~FOLLOWER_BIT
      }
      ids[y * width + x] = id === 0 ? NOTHING : id === ID_FLOOR ? FLOOR : id === ID_OTHER ? OTHER : id - 1
    }
  return { width, height, ids, followers }
}

/**
 * Up to `count` pixels of `picture`, chosen at random by `random`, where `accept` takes the id drawn and every
 * pixel around it shows the same id (a pixel on an edge between two things is either's by a float's rounding).
 */
export function choosePixels(
  picture: PickPicture,
  count: number,
  accept: (id: number) => boolean,
  random: () => number,
): { x: number; y: number; id: number; follower: boolean }[] {
  const { width, height, ids } = picture
  const candidates: number[] = []
  for (let y = 1; y < height - 1; y++)
    for (let x = 1; x < width - 1; x++) {
      const id = ids[y * width + x]!
      if (!accept(id)) continue
      let inside = true
      for (let dy = -1; dy <= 1 && inside; dy++) for (let dx = -1; dx <= 1; dx++) if (ids[(y + dy) * width + x + dx] !== id) inside = false
      if (inside) candidates.push(y * width + x)
    }
  const chosen: { x: number; y: number; id: number; follower: boolean }[] = []
  for (let n = 0; n < count && candidates.length > 0; n++) {
    const at = Math.floor(random() * candidates.length)
    const p = candidates[at]!
    candidates[at] = candidates[candidates.length - 1]!
    candidates.pop()
    chosen.push({ x: p % width, y: Math.floor(p / width), id: ids[p]!, follower: picture.followers[p] === 1 })
  }
  return chosen
}

/**
 * A click at canvas pixel (`x`, `y`), as a user's: pointer down, up, then click, dispatched on the canvas at the
 * pixel's top-left corner, the whole CSS pixel Chrome gives the click (`pickPicture` samples there).
 */
export function clickAt(canvas: HTMLCanvasElement, x: number, y: number): void {
  const rect = canvas.getBoundingClientRect()
  const init = {
    bubbles: true,
    cancelable: true,
    composed: true,
    clientX: rect.left + x,
    clientY: rect.top + y,
    button: 0,
    pointerId: 1,
    pointerType: 'mouse',
    isPrimary: true,
  }
  canvas.dispatchEvent(new PointerEvent('pointermove', { ...init, buttons: 0 }))
  canvas.dispatchEvent(new PointerEvent('pointerdown', { ...init, buttons: 1 }))
  canvas.dispatchEvent(new PointerEvent('pointerup', { ...init, buttons: 0 }))
  canvas.dispatchEvent(new MouseEvent('click', { ...init, buttons: 0 }))
}
