/**
 * A picking pass for tests: the scene drawn again, each crowd instance in a colour naming it, every other mesh
 * in one colour (`FLOOR` for the meshes named `floor`, black for the rest), into a render target read back.
 * The crowds are drawn by their own GPU decode (the rows they were drawn from, the same pose, culling and
 * matrices), with three's per-instance colour: what the picture shows is what the picture names.
 */
import {
  Color,
  InstancedBufferAttribute,
  Mesh,
  MeshBasicMaterial,
  WebGLRenderTarget,
  type Camera,
  type Material,
  type Object3D,
  type Scene,
  Vector2,
  type WebGLRenderer,
} from 'three'
import { crowdParts } from '../../src/three/crowd/crowdParts'
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

/** The colour of each crowd's slot `k`: the instance that slot draws (its own index drawn from stored rows, the listed one from posed rows). */
function colourSlots(crowd: MD2CrowdBase, follower: boolean): void {
  const parts = crowdParts.get(crowd)!
  const capacity = crowd.capacity
  if (!crowd.instanceColor) crowd.instanceColor = new InstancedBufferAttribute(new Float32Array(capacity * 3), 3)
  const stored = parts.rows.isStored
  for (let k = 0; k < crowd.count; k++) {
    const i = stored ? k : parts.instances.ids[k]!
    encode((i + 1) | (follower ? FOLLOWER_BIT : 0), scratch)
    crowd.instanceColor.setXYZ(k, scratch.r, scratch.g, scratch.b)
  }
  crowd.instanceColor.needsUpdate = true
}

const pickMaterials = new WeakMap<MD2CrowdBase, Material>()

/** A white unlit material drawing `crowd` by its own decode (colour per instance: three's instance colour). */
function pickMaterial(crowd: MD2CrowdBase): Material {
  let material = pickMaterials.get(crowd)
  if (!material) {
    const inner = crowd as unknown as { frames: MD2GpuFrames; renderer: CrowdRenderer }
    const renderer = inner.renderer
    material = drawWithGpuFrames(new MeshBasicMaterial({ color: 0xffffff }), inner.frames, {
      state: renderer.state,
      webgpu: undefined,
      computed: renderer.computed,
      culled: renderer.culled,
    })
    pickMaterials.set(crowd, material)
  }
  return material
}

/** Draws `scene` from `camera` as ids (WebGLRenderer), as it was last drawn: returns the picture, row 0 at the top. */
export function pickPicture(gl: WebGLRenderer, scene: Scene, camera: Camera): PickPicture {
  const size = gl.getDrawingBufferSize(new Vector2())
  const width = size.x
  const height = size.y
  const target = new WebGLRenderTarget(width, height)
  const floor = new MeshBasicMaterial({ color: encode(ID_FLOOR, new Color()) })
  const other = new MeshBasicMaterial({ color: encode(ID_OTHER, new Color()) })
  const undo: (() => void)[] = []
  scene.traverse((object: Object3D) => {
    if (object instanceof MD2CrowdBase) {
      const { material, instanceColor } = object
      colourSlots(object, object.leader !== undefined)
      object.material = pickMaterial(object)
      undo.push(() => {
        object.material = material
        object.instanceColor = instanceColor
      })
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
  gl.setRenderTarget(target)
  gl.clear()
  gl.render(scene, camera)
  const pixels = new Uint8Array(width * height * 4)
  gl.readRenderTargetPixels(target, 0, 0, width, height, pixels)
  gl.setRenderTarget(before)
  gl.setClearColor(clear, alpha)
  scene.background = background
  for (const step of undo) step()
  target.dispose()
  floor.dispose()
  other.dispose()
  const ids = new Int32Array(width * height)
  const followers = new Uint8Array(width * height)
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const o = ((height - 1 - y) * width + x) * 4
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

/** A click at canvas pixel (`x`, `y`)'s centre, as a user's: pointer down, up, then click, dispatched on the canvas. */
export function clickAt(canvas: HTMLCanvasElement, x: number, y: number): void {
  const rect = canvas.getBoundingClientRect()
  const init = {
    bubbles: true,
    cancelable: true,
    composed: true,
    clientX: rect.left + x + 0.5,
    clientY: rect.top + y + 0.5,
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
