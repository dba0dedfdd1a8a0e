import { forwardRef, useEffect, useMemo, useRef, useState, type ForwardedRef, type RefObject } from 'react'
import {
  CapsuleCollider,
  CuboidCollider,
  useBeforePhysicsStep,
  useRapier,
  type CuboidColliderProps,
  type RapierCollider,
} from '@react-three/rapier'
import type { Group } from 'three'
import type { MD2ModelData } from '../../core/format/types.js'
import type { MD2Pose } from '../../core/animation/pose.js'
import { MD2Error } from '../../core/MD2Error.js'
import { fitStanding, type MD2Origin } from '../../core/format/standingBounds.js'
import { useMD2ModelContext } from '../MD2ModelContext.js'
import { ColliderFit, type ColliderShape } from './ColliderFit.js'

export interface MD2ColliderProps extends Omit<CuboidColliderProps, 'args' | 'position' | 'rotation' | 'quaternion' | 'scale'> {
  /**
   * `"cuboid"` (the default): the pose's box, a lying character's box when it lies. `"capsule"`, for a character
   * controller: upright on the model's axis, its feet and radius the model's standing (`getStandingBounds`), its
   * top the pose's (lower when crouching or lying).
   */
  shape?: ColliderShape
  /**
   * How far (in the model's units, Quake II's inch) the pose's box must move before the collider is reshaped;
   * a move of the model itself is followed exactly. Default 1.
   */
  tolerance?: number
  /** Outside an `<MD2Model>` or `<MD2Player>`: the model whose pose is fitted (an `<MD2Instances>`'s). */
  model?: MD2ModelData
  /** Outside an `<MD2Model>` or `<MD2Player>`: what shows the pose (an `<MD2Instance>`'s `controllerRef`). */
  readout?: RefObject<{ readonly pose: Readonly<MD2Pose> } | null>
  /**
   * With `readout`, in a crowd given `height` and `origin` (`<MD2Instances height origin>`): the same, as the
   * instance's group does not carry them. (An `<MD2Model>`'s or `<MD2Player>`'s children are placed with its own.)
   */
  height?: number
  origin?: MD2Origin
}

/**
 * A rapier collider that keeps to the pose of the character it is put in: a child of `<MD2Model>` or
 * `<MD2Player>` (or of an `<MD2Instance>`, given `model` and `readout`). Inside a `<RigidBody>` wrapped
 * around the character it is that body's collider; in none, a collider of its own that follows the
 * character's world place (others stop at it; to push bodies, wrap the character in a kinematic
 * `<RigidBody>`). The shape is resized in place when the pose's box moves by more than `tolerance`, never
 * made again per frame; changing `shape` makes a new one. The ref is the rapier `Collider`; other props are
 * rapier's collider props (`friction`, `sensor`, `collisionGroups`, `onCollisionEnter`…). Needs `<Physics>`.
 */
export const MD2Collider = forwardRef<RapierCollider | null, MD2ColliderProps>(function MD2Collider(
  { shape = 'cuboid', tolerance = 1, model: given, readout, height, origin, ...props },
  ref,
) {
  const context = useMD2ModelContext()
  const model = given ?? context?.model
  if (!model)
    throw new MD2Error(
      'BAD_ARGUMENT',
      '<MD2Collider> fits the pose of the <MD2Model> or <MD2Player> it is put in, and is in none: put it in one, or give it `model` and `readout` (an <MD2Instance>’s controllerRef)',
    )
  if (shape !== 'cuboid' && shape !== 'capsule')
    throw new MD2Error('BAD_ARGUMENT', `<MD2Collider shape="${String(shape)}">: the shape is "cuboid" or "capsule"`)
  if (!(tolerance >= 0 && Number.isFinite(tolerance)))
    throw new MD2Error('BAD_ARGUMENT', `<MD2Collider tolerance={${String(tolerance)}}>: a distance, 0 or more, in the model's units`)
  const { colliderStates } = useRapier()
  const anchor = useRef<Group>(null)
  const collider = useRef<RapierCollider | null>(null)
  const [fit] = useState(() => new ColliderFit())
  const standing = useMemo(
    () => (readout && (height !== undefined || origin !== undefined) ? fitStanding(model, height, origin) : undefined),
    [readout, model, height, origin],
  )
  // rapier places a collider again from its object whenever its props change: fit it again after each render.
  useEffect(() => {
    fit.dirty = true
  })
  useBeforePhysicsStep(() => {
    const shown = readout ? readout.current?.pose : context?.pose
    if (!collider.current || !anchor.current || !shown) return
    const body = collider.current.parent() ? colliderStates.get(collider.current.handle)?.worldParent : undefined
    fit.update(collider.current, anchor.current, body, model, shown, shape, tolerance, standing)
  })
  const setRef = (instance: RapierCollider | null) => {
    collider.current = instance
    fit.dirty = true
    assignRef(ref, instance)
  }
  // The shape's size is the fit's: the args only make it, at unit size, before the first step resizes it.
  return (
    <group ref={anchor}>
      {shape === 'capsule' ? (
        <CapsuleCollider {...props} ref={setRef} args={UNIT_CAPSULE} />
      ) : (
        <CuboidCollider {...props} ref={setRef} args={UNIT_CUBOID} />
      )}
    </group>
  )
})

const UNIT_CUBOID: [number, number, number] = [1, 1, 1]
const UNIT_CAPSULE: [number, number] = [1, 1]

function assignRef<T>(ref: ForwardedRef<T>, value: T): void {
  if (typeof ref === 'function') ref(value)
  else if (ref) ref.current = value
}
