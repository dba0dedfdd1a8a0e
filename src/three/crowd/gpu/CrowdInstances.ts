import { Matrix4, Quaternion, Vector3, type Camera, type Sphere } from 'three'
import { MD2Error } from '../../../core/MD2Error.js'
import { FRUSTUM_FLOATS, placeSphereCentre, sphereInFrustum, writeFrustumPlanes } from '../../mesh/frustum.js'

export interface Vector3Like {
  x: number
  y: number
  z: number
}

/** Where `MD2Crowd.setTransform` places an instance, relative to the crowd; nothing of it is kept (reuse one). */
export interface CrowdTransform {
  /** `{ x, y, z }` (a `Vector3`) or `[x, y, z]`, as R3F's `position`. */
  position: Readonly<Vector3Like> | readonly [number, number, number]
  /** A yaw in radians about +Y (default 0), or a quaternion. */
  rotation?: number | Quaternion
  /** One scale for every axis (default 1), or one per axis (`{ x, y, z }` or `[x, y, z]`). */
  scale?: number | Readonly<Vector3Like> | readonly [number, number, number]
}

/**
 * A crowd's instances on the CPU: each one's matrix relative to the crowd, the radius of its all-frames
 * sphere at its scale, whether it is hidden, how many are in use, and which are drawn (the instances in
 * view, in order, each culled by its own sphere).
 */
export class CrowdInstances {
  /** 16 floats per instance (column-major, as `Matrix4.elements`). */
  readonly transforms: Float32Array
  readonly radii: Float32Array
  readonly hidden: Uint8Array
  /** Which instance each drawn slot shows: `ids[0 … drawn − 1]`. */
  readonly ids: Int32Array
  /** Slots listed in `ids`. */
  drawn = 0
  /** Instances in use: `0 … size − 1` are drawn when in view. */
  size = 0
  /** The camera's view in the crowd's space, and one instance's sphere in it (centre, radius). */
  private readonly planes = new Float32Array(FRUSTUM_FLOATS)
  private readonly bounds = new Float64Array(4)

  constructor(
    readonly capacity: number,
    /** The model's sphere around every frame. */
    readonly sphere: Sphere,
  ) {
    this.transforms = new Float32Array(capacity * 16)
    for (let i = 0; i < capacity; i++) this.transforms.set(IDENTITY, i * 16)
    this.radii = new Float32Array(capacity).fill(sphere.radius)
    this.hidden = new Uint8Array(capacity)
    this.ids = new Int32Array(capacity)
  }

  checkIndex(i: number): void {
    if (!Number.isInteger(i) || i < 0 || i >= this.capacity)
      throw new MD2Error('BAD_ARGUMENT', `MD2Crowd: instance ${String(i)} is outside 0…${this.capacity - 1} (the crowd's limit)`)
  }

  /** Instance `i` is in use (placed or animated). */
  use(i: number): void {
    if (i >= this.size) this.size = i + 1
  }

  /** Places instance `i` by a matrix's elements, and shows it. */
  place(i: number, e: ArrayLike<number>): void {
    // A NaN here would draw nothing and pass every culling test: refused where it is given.
    for (let k = 0; k < 16; k++)
      if (!Number.isFinite(e[k]))
        throw new MD2Error(
          'BAD_ARGUMENT',
          `MD2Crowd: instance ${i} placed by a matrix with ${String(e[k])} at element ${k} (setTransform takes finite numbers: position { x, y, z } or [x, y, z], a yaw or quaternion, a scale)`,
        )
    this.transforms.set(e, i * 16)
    // Not Math.hypot: V8 allocates in it, and <MD2Instance> places its instance every frame.
    const sx = Math.sqrt(e[0]! * e[0]! + e[1]! * e[1]! + e[2]! * e[2]!)
    const sy = Math.sqrt(e[4]! * e[4]! + e[5]! * e[5]! + e[6]! * e[6]!)
    const sz = Math.sqrt(e[8]! * e[8]! + e[9]! * e[9]! + e[10]! * e[10]!)
    this.radii[i] = this.sphere.radius * Math.max(sx, sy, sz)
    this.hidden[i] = 0
    this.use(i)
  }

  /** The view the list is of: culled by `planes` (or not), at most `limit`; the list is made again when asked. */
  private view = { cull: false, limit: 0, stale: false }

  /**
   * Takes `camera`'s view (of a crowd placed by `world`; none: no culling), listing at most `limit`: returns
   * its planes in the crowd's space. The list (`listed`) is made from it when asked.
   */
  viewFrom(camera: Camera | undefined, world: Matrix4, limit: number): Float32Array | undefined {
    const view = this.view
    view.cull = camera !== undefined
    view.limit = limit
    view.stale = true
    if (!camera) return undefined
    camera.updateMatrixWorld()
    return writeFrustumPlanes(this.planes, camera, world)
  }

  /** The instances listed drawn in the last view taken (`ids[0 … drawn − 1]`), listed now if not yet: returns how many. */
  listed(): number {
    if (this.view.stale) this.collect()
    return this.drawn
  }

  /**
   * Lists the instances in use, not hidden and, given a camera, whose spheres are in its view (of a crowd
   * placed by `world`), at most `limit`: returns how many.
   */
  collectInView(camera: Camera | undefined, world: Matrix4, limit: number): number {
    this.viewFrom(camera, world, limit)
    return this.collect()
  }

  private collect(): number {
    this.view.stale = false
    const planes = this.view.cull ? this.planes : undefined
    const limit = this.view.limit
    const t = this.transforms
    const c = this.sphere.center
    let drawn = 0
    for (let i = 0; i < this.size && drawn < limit; i++) {
      if (this.hidden[i]) continue
      if (planes) {
        const bounds = this.bounds
        placeSphereCentre(bounds, t, i * 16, c)
        bounds[3] = this.radii[i]!
        if (!sphereInFrustum(planes, bounds)) continue
      }
      this.ids[drawn++] = i
    }
    this.drawn = drawn
    return drawn
  }

  /**
   * Writes, for a crowd placed by `world`, the world height of instance `i`'s origin at `out[0]` and the
   * world length of its Y axis (its model units to world units, upwards) at `out[1]`. Into an array: V8
   * boxes a fractional number a call returns.
   */
  writeUpright(i: number, world: Matrix4, out: Float64Array): void {
    const w = world.elements
    const t = this.transforms
    const o = i * 16
    out[0] = w[1]! * t[o + 12]! + w[5]! * t[o + 13]! + w[9]! * t[o + 14]! + w[13]!
    const x = w[0]! * t[o + 4]! + w[4]! * t[o + 5]! + w[8]! * t[o + 6]!
    const y = w[1]! * t[o + 4]! + w[5]! * t[o + 5]! + w[9]! * t[o + 6]!
    const z = w[2]! * t[o + 4]! + w[6]! * t[o + 5]! + w[10]! * t[o + 6]!
    out[1] = Math.sqrt(x * x + y * y + z * z) || 1
  }
}

/** The matrix of `transform` (one matrix, reused by every call). */
export function composeTransform(transform: CrowdTransform): Matrix4 {
  const { position, rotation = 0, scale = 1 } = transform
  if (typeof rotation === 'number') scratchQuaternion.setFromAxisAngle(UP, rotation)
  else scratchQuaternion.copy(rotation)
  if (isTuple(position)) scratchPosition.fromArray(position)
  // No position: NaN, refused by `place` with the instance named.
  else scratchPosition.set(position?.x ?? NaN, position?.y ?? NaN, position?.z ?? NaN)
  if (typeof scale === 'number') scratchScale.setScalar(scale)
  else if (isTuple(scale)) scratchScale.fromArray(scale)
  else scratchScale.set(scale.x, scale.y, scale.z)
  return scratchMatrix.compose(scratchPosition, scratchQuaternion, scratchScale)
}

const isTuple = (value: unknown): value is readonly [number, number, number] => Array.isArray(value)
const IDENTITY = new Matrix4().elements
const UP = new Vector3(0, 1, 0)
const scratchMatrix = new Matrix4()
const scratchQuaternion = new Quaternion()
const scratchPosition = new Vector3()
const scratchScale = new Vector3()
