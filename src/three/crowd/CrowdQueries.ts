import { Box3, Matrix4, Mesh, Ray, Sphere, Vector3, type InstancedMesh, type Intersection, type Object3D, type Raycaster } from 'three'
import { ROW_LOOP, ROW_NO_INTERPOLATION, ROW_POSED, ROW_REVERSE, readCrowdPose, type CrowdClock } from '../../core/animation/CrowdClock.js'
import { fadeOutWeight, rangeFrame } from '../../core/animation/KeyframeClock.js'
import { createPose, type MD2Pose } from '../../core/animation/pose.js'
import { FRAME_HEADER_SIZE } from '../../core/format/spec.js'
import type { MD2ModelData } from '../../core/format/types.js'
import { blendPoseYUp, blendVerticesYUp, type BlendTarget } from '../../core/animation/blendVertices.js'
import { createMD2Geometry, getMD2RenderData } from '../mesh/MD2Geometry.js'
import type { CrowdInstances } from './gpu/CrowdInstances.js'
import type { CrowdShaderState } from './gpu/CrowdShaderState.js'
import type { InstanceRowWriter } from './gpu/instanceRows.js'
import { CLOCK, FADE, INSTANCE_STRIDE, RANGE } from './gpu/rowLayout.js'

/**
 * Questions about a crowd's instances as drawn (`drawnPose`), answered on the CPU: an instance's pose bounds, and
 * which drawn instances a ray hits (against their animated triangles; an instance is posed only once the
 * ray meets its sphere and its pose's box). Queries, not a per-frame path: each instance asked about is
 * posed into one scratch mesh, made at the first question.
 */
export class CrowdQueries {
  private scratch: { mesh: Mesh; pose: MD2Pose; target: BlendTarget } | undefined
  /** Per instance, the object reporting its hits instead of the crowd (`setHitObject`); empty when none does. */
  private readonly hitObjects: (Object3D | undefined)[] = []
  /** Per frame, its vertices' least and greatest byte on each Quake axis (`frameByteBoxes`), at the first raycast. */
  private frameBytes: Uint8Array | undefined

  constructor(
    private readonly crowd: {
      /** The crowd: its world matrix, its material, the instances it draws (`count`). */
      mesh: InstancedMesh
      model: MD2ModelData
      instances: CrowdInstances
      clock: CrowdClock
      /** The rows the GPU drew the crowd from (`data`), stored or posed (`rows`), and its time (`renderer.state`). */
      data: { array: ArrayLike<number> }
      rows: Pick<InstanceRowWriter, 'isStored'>
      renderer: { state: CrowdShaderState }
      /** Its place in a chain of followers: on a tag the shader places it on, that placement (`CrowdLink.tagOnto`). */
      link?: { tagOnto(i: number, matrix: Matrix4): void } | undefined
    },
  ) {}

  /** Instance `i`'s matrix as drawn, into `instanceWorld`: its transform, times the tag's placement where the shader places it on one. */
  private placed(i: number): Matrix4 {
    instanceWorld.fromArray(this.crowd.instances.transforms, i * 16)
    this.crowd.link?.tagOnto(i, instanceWorld)
    return instanceWorld
  }

  /** `pose` (the scratch pose, read from the crowd) written into the scratch mesh. */
  private posed(pose: MD2Pose): Mesh {
    const scratch = this.scratch!
    // The crowd's poses hold frames of its model (clamped as they are written).
    if (pose.fadeWeight > 0) blendPoseYUp(this.crowd.model, pose, scratch.target)
    else blendVerticesYUp(this.crowd.model, pose, scratch.target)
    scratch.mesh.geometry.getAttribute('position').needsUpdate = true
    return scratch.mesh
  }

  private makeScratch(): { mesh: Mesh; pose: MD2Pose; target: BlendTarget } {
    const geometry = createMD2Geometry(this.crowd.model, { normals: false })
    const target = {
      xyzIndex: getMD2RenderData(this.crowd.model).layout.xyzIndex,
      positions: geometry.getAttribute('position').array as Float32Array,
    }
    return { mesh: new Mesh(geometry, this.crowd.mesh.material), pose: createPose(0), target }
  }

  /** The box of instance `i`'s pose as drawn (`drawnPose`), placed by its transform (in the crowd's space), written into `target`. */
  poseBounds(i: number, target: Box3): Box3 {
    const scratch = (this.scratch ??= this.makeScratch())
    const positions = this.posed(this.drawnPose(i, scratch.pose)).geometry.getAttribute('position').array as Float32Array
    const e = this.placed(i).elements
    target.makeEmpty()
    for (let o = 0; o < positions.length; o += 3) {
      const x = positions[o]!
      const y = positions[o + 1]!
      const z = positions[o + 2]!
      corner.set(
        e[0]! * x + e[4]! * y + e[8]! * z + e[12]!,
        e[1]! * x + e[5]! * y + e[9]! * z + e[13]!,
        e[2]! * x + e[6]! * y + e[10]! * z + e[14]!,
      )
      target.expandByPoint(corner)
    }
    return target
  }

  /**
   * Hits against each drawn instance's animated triangles, as the crowd's (`instanceId`: the instance), but for
   * those an object of `owners`' reports (`setHitObject`: a follower passes its leader's).
   */
  raycast(raycaster: Raycaster, intersects: Intersection[], owners: CrowdQueries = this): void {
    const { instances } = this.crowd
    const hitObjects = owners.hitObjects
    const owned = hitObjects.length > 0
    // The instances in view (listed when asked, where the crowd draws from stored rows); none where nothing is drawn.
    const drawn = this.crowd.mesh.count === 0 ? 0 : instances.listed()
    for (let k = 0; k < drawn; k++) {
      const i = instances.ids[k]!
      if (owned && hitObjects[i] !== undefined) continue
      if (this.nearRay(i, raycaster)) this.hit(i, raycaster, intersects, this.crowd.mesh)
    }
  }

  /**
   * From now on `object`'s raycast reports instance `i` (`raycastInstance`), and the crowd's leaves it
   * out, so that a hit is reported once, by the object (an `<MD2Instance>` with pointer handlers, whose
   * events then bubble to the crowd); `null` gives it back to the crowd.
   */
  setHitObject(i: number, object: Object3D | null): void {
    if (object) this.hitObjects[i] = object
    else if (i < this.hitObjects.length) {
      this.hitObjects[i] = undefined
      // Trimmed, so that a crowd whose objects are gone skips the look-up again.
      let end = this.hitObjects.length
      while (end > 0 && this.hitObjects[end - 1] === undefined) end--
      this.hitObjects.length = end
    }
  }

  /** Hits against instance `i` alone, if it is drawn (placed, not hidden, in view), reported as `object`'s. */
  raycastInstance(i: number, raycaster: Raycaster, intersects: Intersection[], object: Object3D): void {
    const { instances } = this.crowd
    if (i < 0 || i >= instances.size || instances.hidden[i]) return
    // Its sphere first: the walk over the drawn list below is only for an instance near the ray.
    if (!this.nearRay(i, raycaster)) return
    const ids = instances.ids
    let k = 0
    const drawn = this.crowd.mesh.count === 0 ? 0 : instances.listed()
    while (k < drawn && ids[k] !== i) k++
    if (k < drawn) this.hit(i, raycaster, intersects, object)
  }

  /** Whether the ray meets instance `i`'s all-frames sphere; leaves its world matrix in `instanceWorld`. */
  private nearRay(i: number, raycaster: Raycaster): boolean {
    this.placed(i).premultiply(this.crowd.mesh.matrixWorld)
    worldSphere.copy(this.crowd.instances.sphere).applyMatrix4(instanceWorld)
    return raycaster.ray.intersectsSphere(worldSphere)
  }

  /**
   * Instance `i`'s hits, as `object`'s, once the ray met its sphere (`nearRay`, whose matrix it reads): the
   * box of its pose first (`poseBox`, from its keyframes' boxes), and only then its pose blended and its
   * triangles met.
   */
  private hit(i: number, raycaster: Raycaster, intersects: Intersection[], object: Object3D): void {
    const scratch = (this.scratch ??= this.makeScratch())
    const pose = this.drawnPose(i, scratch.pose)
    const box = this.poseBox(pose)
    localRay.copy(raycaster.ray).applyMatrix4(inverseWorld.copy(instanceWorld).invert())
    if (!localRay.intersectsBox(box)) return
    const posed = this.posed(pose)
    posed.geometry.boundingSphere = this.crowd.instances.sphere
    posed.geometry.boundingBox = box
    posed.matrixWorld.copy(instanceWorld)
    const before = intersects.length
    posed.raycast(raycaster, intersects)
    for (let h = before; h < intersects.length; h++) {
      intersects[h]!.instanceId = i
      intersects[h]!.object = object
    }
  }

  /**
   * Instance `i`'s pose as drawn, into `pose`: read from the row the GPU drew it from (its own slot from stored
   * rows, its slot in the drawn list from posed rows), at the time the crowd was drawn at, by the shader's rules
   * (`md2Pose`). So a hit is against the picture even when the instance was told something since (a `play` in a
   * click's handler shows at the next frame; the clock's pose has it already). The clock's pose where no drawn row
   * holds the instance.
   */
  private drawnPose(i: number, pose: MD2Pose): MD2Pose {
    const { mesh, instances, clock, rows, data, renderer } = this.crowd
    let row = -1
    if (rows.isStored) row = i < mesh.count ? i : -1
    else for (let k = 0; k < mesh.count && row < 0; k++) if (instances.ids[k] === i) row = k
    if (row < 0) {
      clock.pose(i)
      return readCrowdPose(clock.poses, i, pose)
    }
    const d = data.array
    const a = row * INSTANCE_STRIDE
    const flags = d[a + RANGE + 1]!
    pose.fadeFrom = d[a + FADE]!
    pose.fadeTo = d[a + FADE + 1]!
    pose.fadeT = d[a + FADE + 2]!
    if (flags & ROW_POSED) {
      pose.from = d[a + CLOCK]!
      pose.to = d[a + CLOCK + 1]!
      pose.t = d[a + CLOCK + 2]!
      pose.fadeWeight = d[a + RANGE + 3]!
      return pose
    }
    // A stored row: the playhead where it was placed, moved on at its rate to the crowd's time (from its epoch).
    const time = renderer.state.uniforms.md2Time.value
    const rate = d[a + CLOCK + 2]!
    const length = d[a + CLOCK + 3]!
    const start = d[a + RANGE]!
    const loop = (flags & ROW_LOOP) !== 0
    let position = d[a + CLOCK]!
    if (rate > 0) position += (time - d[a + CLOCK + 1]!) * rate
    if (!loop) {
      if (rate > 0 && position >= length - 1) position = length - 1
    } else if (position >= length) position -= Math.floor(position / length) * length
    const count = Math.floor(position)
    const reverse = (flags & ROW_REVERSE) !== 0
    pose.from = rangeFrame(start, start + length - 1, loop, reverse, count)
    pose.to = !loop && count >= length - 1 ? pose.from : rangeFrame(start, start + length - 1, loop, reverse, count + 1)
    pose.t = flags & ROW_NO_INTERPOLATION ? 0 : position - count
    const elapsed = time - d[a + RANGE + 2]!
    const fade = d[a + RANGE + 3]!
    pose.fadeWeight = fade > 0 && elapsed < fade ? fadeOutWeight(elapsed / fade) : 0
    return pose
  }

  /**
   * The box of `pose` in the model's space, Y-up: per axis, the blend of its keyframes' boxes (every vertex
   * blends between its places in the two, so stays between the boxes' blend), and during a crossfade the
   * union with the outgoing blend's. Each frame's box is read from its extreme bytes, found once per crowd.
   */
  private poseBox(pose: MD2Pose): Box3 {
    const extremes = (this.frameBytes ??= frameByteBoxes(this.crowd.model))
    blendBox(this.crowd.model, extremes, pose.from, pose.to, pose.t, poseBox.makeEmpty())
    if (pose.fadeWeight > 0) blendBox(this.crowd.model, extremes, pose.fadeFrom, pose.fadeTo, pose.fadeT, poseBox)
    return poseBox
  }

  dispose(): void {
    this.scratch?.mesh.geometry.dispose()
  }
}

const instanceWorld = new Matrix4()
const corner = new Vector3()
const worldSphere = new Sphere()
const inverseWorld = new Matrix4()
const localRay = new Ray()
const poseBox = new Box3()
/** Model units the pose box is grown by: more than the kernels' float rounding. */
const ROUNDING = 1e-3

/** Per frame of `model`, its vertices' least then greatest byte on each Quake axis (6 bytes a frame). */
function frameByteBoxes(model: MD2ModelData): Uint8Array {
  const { frameData: data, frameStride: stride } = model
  const { numFrames, numVertices } = model.header
  const out = new Uint8Array(numFrames * 6)
  for (let f = 0; f < numFrames; f++) {
    const start = f * stride + FRAME_HEADER_SIZE
    out.fill(255, f * 6, f * 6 + 3)
    for (let v = start; v < start + numVertices * 4; v += 4)
      for (let q = 0; q < 3; q++) {
        const b = data[v + q]!
        if (b < out[f * 6 + q]!) out[f * 6 + q] = b
        if (b > out[f * 6 + 3 + q]!) out[f * 6 + 3 + q] = b
      }
  }
  return out
}

/** Grows `box` (Y-up) by the box of the blend of frames `from` → `to` at `t`, a hair larger for the rounding. */
function blendBox(model: MD2ModelData, extremes: Uint8Array, from: number, to: number, t: number, box: Box3): void {
  const m = model.frameTransforms
  for (let c = 0; c < 3; c++) {
    // Y-up axis c is Quake axis (c + 1) mod 3.
    const q = (c + 1) % 3
    let lo = 0
    let hi = 0
    for (let k = 0; k < 2; k++) {
      const f = k === 0 ? from : to
      const w = k === 0 ? 1 - t : t
      const a = m[f * 6 + 3 + q]! + m[f * 6 + q]! * extremes[f * 6 + q]!
      const b = m[f * 6 + 3 + q]! + m[f * 6 + q]! * extremes[f * 6 + 3 + q]!
      // A negative scale turns the bytes' order; a weight outside [0, 1] (a blend past its pair) turns the box's.
      lo += w * (w >= 0 === a <= b ? a : b)
      hi += w * (w >= 0 === a <= b ? b : a)
    }
    if (lo - ROUNDING < box.min.getComponent(c)) box.min.setComponent(c, lo - ROUNDING)
    if (hi + ROUNDING > box.max.getComponent(c)) box.max.setComponent(c, hi + ROUNDING)
  }
}
