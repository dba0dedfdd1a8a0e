import { Box3, BufferAttribute, BufferGeometry, DynamicDrawUsage, Sphere } from 'three'
import { blendOverHeldPose, blendVerticesYUp, type HeldPoseTarget } from '../../core/animation/blendVertices.js'
import type { LitBlendTarget } from '../../core/animation/blendVerticesLit.js'
import type { PoseBoxKernels } from '../../core/animation/blendVerticesBounded.js'
import type { PoseOutputs } from '../../core/animation/blendPoseInto.js'
import { getMD2RenderData } from './MD2RenderData.js'
import type { MD2Pose } from '../../core/animation/pose.js'
import type { MD2ModelData } from '../../core/format/types.js'
import { MD2Error } from '../../core/MD2Error.js'

// Here too, where the geometry's users have always found them (the crowd imports `MD2RenderData.ts` alone).
export { getMD2RenderData, type MD2RenderData } from './MD2RenderData.js'

export interface CreateMD2GeometryOptions {
  /** Allocate and write a normal attribute (skip it for unlit materials). Default true. */
  normals?: boolean
  /** Allocate a `color` attribute for per-vertex light (Quake II lighting). Default false. */
  colors?: boolean
  /** The frame written at creation. Default 0. */
  frame?: number
}

/**
 * A BufferGeometry for one instance: its own dynamic `position` (and `normal`) buffers, the shared
 * `index` and `uv` attributes, and the all-frames bounds. Dispose it when done; the shared parts
 * are simply uploaded again by whichever instance draws next.
 */
export function createMD2Geometry(model: MD2ModelData, options: CreateMD2GeometryOptions = {}): BufferGeometry {
  const data = getMD2RenderData(model)
  const count = data.layout.vertexCount
  const geometry = new BufferGeometry()
  geometry.name = model.name ?? 'md2'
  geometry.setIndex(data.index)
  geometry.setAttribute('position', new BufferAttribute(new Float32Array(count * 3), 3).setUsage(DynamicDrawUsage))
  if (options.normals !== false) {
    geometry.setAttribute('normal', new BufferAttribute(new Float32Array(count * 3), 3).setUsage(DynamicDrawUsage))
  }
  if (options.colors === true) {
    geometry.setAttribute('color', new BufferAttribute(new Float32Array(count * 3).fill(1), 3).setUsage(DynamicDrawUsage))
  }
  geometry.setAttribute('uv', data.uv)
  geometry.boundingBox = data.boundingBox.clone()
  geometry.boundingSphere = data.boundingSphere.clone()
  geometryModels.set(geometry, model)
  const frame = Math.min(Math.max(options.frame ?? 0, 0), model.header.numFrames - 1)
  writeMD2Frame(geometry, model, frame, frame, 0)
  return geometry
}

/** The model each geometry made here draws (so a pose is written without naming it again). */
const geometryModels = new WeakMap<BufferGeometry, MD2ModelData>()

/** The model `geometry` was made for by `createMD2Geometry`, or an `MD2Error` naming the function that needs it. */
export function modelOfGeometry(geometry: BufferGeometry, caller: string): MD2ModelData {
  const model = geometryModels.get(geometry)
  if (model === undefined)
    throw new MD2Error('BAD_ARGUMENT', `${caller}: ${geometry.name || 'this geometry'} was not made by createMD2Geometry`)
  return model
}

/** Which blend a geometry shows: keyframes `from` → `to` at `t` (0 = from). */
export interface MD2Blend {
  from: number
  to: number
  t: number
}

const scratchBlend: MD2Blend = { from: 0, to: 0, t: 0 }

/**
 * Writes the blend of frames `from` → `to` at `t` into a geometry made by `createMD2Geometry`
 * and flags the attributes for upload. Allocates nothing.
 */
export function writeMD2Frame(geometry: BufferGeometry, model: MD2ModelData, from: number, to: number, t: number): void {
  scratchBlend.from = from
  scratchBlend.to = to
  scratchBlend.t = t
  writeMD2Blend(geometry, model, scratchBlend)
}

/**
 * `writeMD2Frame` taking the blend as an object: the per-frame path keeps one per instance, so no
 * fractional `t` is passed by value (which V8 boxes, 16 bytes a call, when it does not inline).
 */
export function writeMD2Blend(geometry: BufferGeometry, model: MD2ModelData, blend: Readonly<MD2Blend>): void {
  const { layout } = getMD2RenderData(model)
  const position = geometry.getAttribute('position') as BufferAttribute
  const normal = geometry.getAttribute('normal') as BufferAttribute | undefined
  const count = model.header.numFrames
  // A frame the model does not have shows frame 0.
  const shown = shownBlend
  shown.from = isFrame(blend.from, count) ? blend.from : 0
  shown.to = isFrame(blend.to, count) ? blend.to : 0
  shown.t = blend.t
  const target = bodyTarget
  target.xyzIndex = layout.xyzIndex
  target.positions = position.array as Float32Array
  target.normals = normal?.array as Float32Array | undefined
  target.colors = target.lightTable = target.bounds = undefined
  blendVerticesYUp(model, shown, target)
  position.needsUpdate = true
  if (normal) normal.needsUpdate = true
}

const shownBlend: MD2Blend = { from: 0, to: 0, t: 0 }

/** Per-vertex light written with a pose (`Quake2Lighting` is one): its table, and the kernels that write it. */
export interface MD2PoseLight {
  /** 256 × 3 colours by normal index. */
  readonly table: Float32Array
  writeLit(model: MD2ModelData, pose: Readonly<MD2Pose>, target: Readonly<LitBlendTarget>): void
}

/** What `writeMD2Pose` writes besides the positions and normals, all in the same pass. */
export interface WriteMD2PoseOptions {
  /**
   * Quake II lighting (a `Quake2Lighting`): its table's colour at each vertex's normal index, written into
   * the `color` attribute instead of normals, by the lit kernels it brings.
   */
  light?: MD2PoseLight
  /** A power-up shell's geometry (`createMD2ShellGeometry`): the pose pushed out along its normals. */
  shell?: BufferGeometry
  /** A blob shadow's geometry (`createMD2ShadowGeometry`) and its shade vector and height (see `PoseOutputs.shadowParameters`). */
  shadow?: { geometry: BufferGeometry; parameters: Float64Array }
  /**
   * The pose's box (`poseBox`): the geometry's `boundingBox` and `boundingSphere` set to it, found with the
   * pass that writes the pose, by the kernels it brings. Without it they keep what they hold (the all-frames
   * bounds `createMD2Geometry` gives; `resetMD2Bounds` puts them back).
   */
  bounds?: PoseBoxKernels
}

/**
 * Writes an `MD2Pose` (a blend, possibly crossfading from another) into a geometry made by
 * `createMD2Geometry`, in one pass, and flags the attributes for upload. Frames outside the model
 * show frame 0. Allocates nothing.
 */
export function writeMD2Pose(geometry: BufferGeometry, pose: Readonly<MD2Pose>, options: WriteMD2PoseOptions = NO_OPTIONS): void {
  const model = modelOfGeometry(geometry, 'writeMD2Pose')
  const { light, shell, shadow } = options
  const { layout } = getMD2RenderData(model)
  const position = geometry.getAttribute('position') as BufferAttribute
  const normal = geometry.getAttribute('normal') as BufferAttribute | undefined
  const color = geometry.getAttribute('color') as BufferAttribute | undefined
  const count = model.header.numFrames
  const fading = pose.fadeWeight > 0
  if (!(
    isFrame(pose.from, count) &&
    isFrame(pose.to, count) &&
    (!fading || (isFrame(pose.fadeFrom, count) && isFrame(pose.fadeTo, count)))
  )) {
    // As for a plain blend, a frame the model does not have shows frame 0.
    writeMD2Frame(geometry, model, 0, 0, 0)
    return
  }
  const lit = light !== undefined && color !== undefined
  const target = bodyTarget
  target.xyzIndex = layout.xyzIndex
  target.positions = position.array as Float32Array
  target.normals = lit ? undefined : (normal?.array as Float32Array | undefined)
  target.colors = lit ? (color.array as Float32Array) : undefined
  target.lightTable = lit ? light.table : undefined
  const boxed = options.bounds
  const bounds = (target.bounds = boxed ? poseBoxArray : undefined)
  if (shell !== undefined || shadow !== undefined) {
    // A power shell or a blob shadow: written with the body in one pass by the kernel their geometries brought.
    const shellPosition = shell?.getAttribute('position') as BufferAttribute | undefined
    const shadowPosition = shadow?.geometry.getAttribute('position') as BufferAttribute | undefined
    target.shell = shellPosition?.array as Float32Array | undefined
    target.shadow = shadowPosition?.array as Float32Array | undefined
    target.shadowParameters = shadow?.parameters
    poseCopyWriterOf(shell ?? shadow!.geometry)(model, pose, target)
    target.shell = target.shadow = target.shadowParameters = undefined
    if (shellPosition) shellPosition.needsUpdate = true
    if (shadowPosition) shadowPosition.needsUpdate = true
  } else if (lit) {
    light.writeLit(model, pose, target as LitBlendTarget)
    if (fading) boxed?.afterPose(target)
    else boxed?.afterPair(model, pose, target)
  } else if (fading) {
    // The outgoing pose is held for the whole fade: blend it once, then mix it in each frame.
    const held = heldPoseOf(geometry, model, pose, layout.xyzIndex, target.normals !== undefined)
    target.heldPositions = held.positions
    target.heldNormals = held.normals
    if (boxed) boxed.overHeld(model, pose, target)
    else blendOverHeldPose(model, pose, target)
  } else {
    blendVerticesYUp(model, pose, target)
    boxed?.afterPair(model, pose, target)
  }
  if (bounds !== undefined) setPoseBounds(geometry, bounds)
  position.needsUpdate = true
  if (normal && target.normals) normal.needsUpdate = true
  if (color && lit) color.needsUpdate = true
}

/** The body's outputs for every write, reused (the kernels read them synchronously). */
const bodyTarget: HeldPoseTarget & PoseOutputs = {
  xyzIndex: new Uint16Array(0),
  positions: new Float32Array(0),
  normals: undefined,
  colors: undefined,
  lightTable: undefined,
  bounds: undefined,
  heldPositions: new Float32Array(0),
  heldNormals: undefined,
  shell: undefined,
  shadow: undefined,
  shadowParameters: undefined,
  shellOffset: 0,
}

/**
 * What writes a pose with the copies of it that a power shell's or blob shadow's geometry holds, in the
 * body's pass (`blendPoseInto`). Those geometries bring it (see `setPoseCopyWriter`), so that an app
 * that never draws either does not load it.
 */
export type PoseCopyWriter = (model: MD2ModelData, pose: Readonly<MD2Pose>, outputs: PoseOutputs) => void

const poseCopyWriters = new WeakMap<BufferGeometry, PoseCopyWriter>()

/** Registers `writer` as what fills `geometry` (a shell's or a blob shadow's) when `writeMD2Pose` is given it. */
export function setPoseCopyWriter(geometry: BufferGeometry, writer: PoseCopyWriter): void {
  poseCopyWriters.set(geometry, writer)
}

function poseCopyWriterOf(geometry: BufferGeometry): PoseCopyWriter {
  const writer = poseCopyWriters.get(geometry)
  if (writer === undefined) {
    throw new MD2Error(
      'BAD_ARGUMENT',
      `writeMD2Pose: ${geometry.name || 'the shell or shadow geometry'} was not made by createMD2ShellGeometry or createMD2ShadowGeometry`,
    )
  }
  return writer
}

/**
 * Sets the geometry's `boundingBox` to the pose's box and its `boundingSphere` to the sphere around that
 * box, as `Box3.getBoundingSphere` makes it (what three's `Box3.setFromObject`, drei's `<Bounds>` and
 * raycasting read). Field by field rather than through `set(x, y, z)`: numbers passed to a call the
 * optimizing compiler does not inline are boxed, and whether it inlines depends on the rest of the path.
 */
function setPoseBounds(geometry: BufferGeometry, box: Float64Array): void {
  const { min, max } = (geometry.boundingBox ??= new Box3())
  const sphere = (geometry.boundingSphere ??= new Sphere())
  min.x = box[0]!
  min.y = box[1]!
  min.z = box[2]!
  max.x = box[3]!
  max.y = box[4]!
  max.z = box[5]!
  const dx = max.x - min.x,
    dy = max.y - min.y,
    dz = max.z - min.z
  // No vertex drawn: an empty box, an empty sphere.
  if (!(dx >= 0 && dy >= 0 && dz >= 0)) {
    sphere.makeEmpty()
    return
  }
  sphere.center.x = (min.x + max.x) * 0.5
  sphere.center.y = (min.y + max.y) * 0.5
  sphere.center.z = (min.z + max.z) * 0.5
  sphere.radius = Math.sqrt(dx * dx + dy * dy + dz * dz) * 0.5
}

/** Puts back the all-frames bounds every instance starts with (after `writeMD2Pose` wrote a pose's). */
export function resetMD2Bounds(geometry: BufferGeometry, model: MD2ModelData): void {
  const data = getMD2RenderData(model)
  ;(geometry.boundingBox ??= new Box3()).copy(data.boundingBox)
  ;(geometry.boundingSphere ??= new Sphere()).copy(data.boundingSphere)
}

const poseBoxArray = new Float64Array(6)
const NO_OPTIONS: WriteMD2PoseOptions = {}

function isFrame(frame: number, count: number): boolean {
  return Number.isInteger(frame) && frame >= 0 && frame < count
}

/**
 * Per geometry, the outgoing pose of its current crossfade, blended once (made on its first fade): the
 * blend it shows and where it is written.
 */
interface HeldPose extends MD2Blend {
  xyzIndex: Uint16Array | Uint32Array
  positions: Float32Array
  normals: Float32Array | undefined
}
const heldPoses = new WeakMap<BufferGeometry, HeldPose>()

function heldPoseOf(
  geometry: BufferGeometry,
  model: MD2ModelData,
  pose: Readonly<MD2Pose>,
  xyzIndex: Uint16Array | Uint32Array,
  withNormals: boolean,
): HeldPose {
  let held = heldPoses.get(geometry)
  const size = xyzIndex.length * 3
  if (held === undefined || (withNormals && held.normals === undefined)) {
    const normals = withNormals ? new Float32Array(size) : undefined
    held = { xyzIndex, positions: new Float32Array(size), normals, from: -1, to: -1, t: -1 }
    heldPoses.set(geometry, held)
  }
  if (held.from !== pose.fadeFrom || held.to !== pose.fadeTo || held.t !== pose.fadeT) {
    held.from = pose.fadeFrom
    held.to = pose.fadeTo
    held.t = pose.fadeT
    blendVerticesYUp(model, held, held)
  }
  return held
}
