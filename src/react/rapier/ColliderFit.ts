import type { RapierCollider } from '@react-three/rapier'
import { Matrix4, Quaternion, Vector3, type Object3D } from 'three'
import type { MD2ModelData } from '../../core/format/types.js'
import type { MD2Pose } from '../../core/animation/pose.js'
import type { MD2StandingFit } from '../../core/format/standingBounds.js'
import { blendedKeyframeBox, uprightBox } from './blendedKeyframeBox.js'

/** A collider's shape: the pose's box, or an upright capsule in it. */
export type ColliderShape = 'cuboid' | 'capsule'

// Scratch shared by every fit: an update runs to its end before the next begins.
const place = new Matrix4()
const inverse = new Matrix4()
const centre = new Vector3()
const rotation = new Quaternion()
const scale = new Vector3()

/**
 * Keeps a rapier collider on a character's pose: what was last given to rapier, so that the shape changes only
 * when the pose's box has moved by more than a tolerance, and the place only when the character's has.
 * Allocates nothing of its own per frame (rapier's wasm calls wrap their arguments, when they are made).
 */
export class ColliderFit {
  /** Set to fit again on the next update whatever moved (a new collider, one rapier placed again). */
  dirty = true
  /** The box last fitted, in the model's space. */
  private readonly fitted = new Float64Array(6)
  private readonly box = new Float64Array(6)
  /** The model's place in the body's space (the world's, with no body) last fitted. */
  private readonly placed = new Float64Array(16)

  /**
   * Fits `collider` to `pose` of `model` drawn in `anchor`'s space (scaled and lifted by `standing`, when given);
   * `body` is the object of the rigid body the collider is attached to (none: the collider is placed in the world).
   */
  update(
    collider: RapierCollider,
    anchor: Object3D,
    body: Object3D | undefined,
    model: MD2ModelData,
    pose: Readonly<MD2Pose>,
    shape: ColliderShape,
    tolerance: number,
    standing: MD2StandingFit | undefined,
  ): void {
    const box = blendedKeyframeBox(model, pose, this.box)
    if (shape === 'capsule') uprightBox(model, box)
    // The model's size and origin where the anchor's space does not have them (an instance of a crowd given them).
    if (standing) for (let k = 0; k < 6; k++) box[k] = box[k]! * standing.scale + (k % 3 === 1 ? standing.lift : 0)
    anchor.updateWorldMatrix(true, false)
    place.copy(anchor.matrixWorld)
    if (body) place.premultiply(inverse.copy(body.matrixWorld).invert())
    let reshape = this.dirty
    // The tolerance is in the model's units: scaled as the box is.
    const limit = standing ? tolerance * standing.scale : tolerance
    for (let k = 0; k < 6 && !reshape; k++) reshape = Math.abs(box[k]! - this.fitted[k]!) > limit
    let move = reshape
    const e = place.elements
    // A body's place comes back from rapier in float32: the product with its inverse moves by rounding alone.
    for (let k = 0; k < 16 && !move; k++) move = Math.abs(e[k]! - this.placed[k]!) > PLACE_EPSILON
    if (!move) return
    this.dirty = false
    if (reshape) this.fitted.set(box)
    this.placed.set(e)
    const f = this.fitted
    place.decompose(centre, rotation, scale)
    centre.set((f[0]! + f[3]!) / 2, (f[1]! + f[4]!) / 2, (f[2]! + f[5]!) / 2).applyMatrix4(place)
    if (collider.parent()) {
      collider.setTranslationWrtParent(centre)
      collider.setRotationWrtParent(rotation)
    } else {
      collider.setTranslation(centre)
      collider.setRotation(rotation)
    }
    if (!reshape) return
    // Half-sizes in rapier's units (the model's scale applied); never zero, which rapier cannot take.
    const hx = Math.max(((f[3]! - f[0]!) / 2) * Math.abs(scale.x), MIN_HALF)
    const hy = Math.max(((f[4]! - f[1]!) / 2) * Math.abs(scale.y), MIN_HALF)
    const hz = Math.max(((f[5]! - f[2]!) / 2) * Math.abs(scale.z), MIN_HALF)
    if (shape === 'cuboid') {
      centre.set(hx, hy, hz)
      collider.setHalfExtents(centre)
    } else {
      const radius = Math.min((hx + hz) / 2, hy)
      collider.setRadius(radius)
      collider.setHalfHeight(Math.max(hy - radius, MIN_HALF))
    }
  }
}

const MIN_HALF = 1e-3
/** A change of place below this (world units) is rounding, not a move. */
const PLACE_EPSILON = 1e-5
