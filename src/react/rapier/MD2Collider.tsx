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
import { fitStanding, getStandingBounds, type MD2Origin, type MD2StandingFit } from '../../core/format/standingBounds.js'
import { warnOnce } from '../../core/warnOnce.js'
import { useMD2InstanceContext, type MD2InstanceContextValue } from '../MD2InstanceContext.js'
import { useMD2ModelContext } from '../MD2ModelContext.js'
import { ColliderFit, type ColliderShape } from './ColliderFit.js'

// Bundlers replace `process.env.NODE_ENV` with a string: production builds leave the size check out.
declare const process: { env: { NODE_ENV?: string } }

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
  /**
   * Whether the collider takes part in the world (default true). `false` keeps it, fitted, out of every contact,
   * sensor event and query (a character controller walks through it): a dead enemy's corpse. rapier's `sensor`
   * instead keeps its events (`onIntersectionEnter`: a corpse to loot) and stops only the contacts.
   */
  enabled?: boolean
  /**
   * Outside an `<MD2Model>`, `<MD2Player>` or `<MD2Instance>`: the model whose pose is fitted. (Inside one, its
   * own; there is no need to give it.)
   */
  model?: MD2ModelData
  /** Outside an `<MD2Model>`, `<MD2Player>` or `<MD2Instance>`: what shows the pose (a controller, its `pose`). */
  readout?: RefObject<{ readonly pose: Readonly<MD2Pose> } | null>
  /**
   * With `readout` outside an `<MD2Instance>`, the `height` and `origin` the model is drawn with (as
   * `<MD2Instances height origin>`), which the collider's parent does not carry. Inside an `<MD2Instance>`,
   * the crowd's are taken; inside an `<MD2Model>` or `<MD2Player>`, its children are placed with its own.
   */
  height?: number
  origin?: MD2Origin
}

/**
 * A rapier collider that keeps to the pose of the character it is put in: a child of `<MD2Model>`,
 * `<MD2Player>` or `<MD2Instance>` (its box in world units: the crowd's `height` and `origin`, the
 * instance's transform), or, anywhere, given `model` and `readout`. Inside a `<RigidBody>` wrapped
 * around the character it is that body's collider; in none, a collider of its own that follows the
 * character's world place (others stop at it; to push bodies, wrap the character in a kinematic
 * `<RigidBody>`). The shape is resized in place when the pose's box moves by more than `tolerance`, never
 * made again per frame; changing `shape` makes a new one. `enabled={false}` takes it out of the world
 * (a corpse the player walks over), rapier's `sensor` out of contacts only. The ref is the rapier `Collider`; other props are
 * rapier's collider props (`friction`, `sensor`, `collisionGroups`, `onCollisionEnter`…). Needs `<Physics>`.
 */
export const MD2Collider = forwardRef<RapierCollider | null, MD2ColliderProps>(function MD2Collider(
  { shape = 'cuboid', tolerance = 1, enabled = true, model: given, readout, height, origin, ...props },
  ref,
) {
  const context = useMD2ModelContext()
  // The nearest instance's (an <MD2Instance> is not put in an <MD2Model>'s children, nor the other way round).
  const instance = useMD2InstanceContext()
  const model = given ?? instance?.model ?? context?.model
  if (!model)
    throw new MD2Error(
      'BAD_ARGUMENT',
      '<MD2Collider> fits the pose of the <MD2Model>, <MD2Player> or <MD2Instance> it is put in, and is in none: put it in one, or give it `model` and `readout` (what shows the pose: a controller)',
    )
  if (shape !== 'cuboid' && shape !== 'capsule')
    throw new MD2Error('BAD_ARGUMENT', `<MD2Collider shape="${String(shape)}">: the shape is "cuboid" or "capsule"`)
  if (!(tolerance >= 0 && Number.isFinite(tolerance)))
    throw new MD2Error('BAD_ARGUMENT', `<MD2Collider tolerance={${String(tolerance)}}>: a distance, 0 or more, in the model's units`)
  const { colliderStates } = useRapier()
  const anchor = useRef<Group>(null)
  const collider = useRef<RapierCollider | null>(null)
  // Whether the collider rapier holds now was last set enabled (undefined: not yet, a new one).
  const applied = useRef<boolean | undefined>(undefined)
  const [fit] = useState(() => new ColliderFit())
  // An instance's group (or a readout's parent) does not carry the size and origin the model is drawn with.
  const placedByCrowd = readout !== undefined || instance !== null
  const drawnHeight = height ?? instance?.height
  const drawnOrigin = origin ?? instance?.origin
  const standing = useMemo(
    () =>
      placedByCrowd && (drawnHeight !== undefined || drawnOrigin !== undefined) ? fitStanding(model, drawnHeight, drawnOrigin) : undefined,
    [placedByCrowd, model, drawnHeight, drawnOrigin],
  )
  if (process.env.NODE_ENV !== 'production' && instance) checkDrawnSize(model, standing, instance)
  // rapier places a collider again from its object whenever its props change: fit it again after each render.
  useEffect(() => {
    fit.dirty = true
  })
  useBeforePhysicsStep(() => {
    if (collider.current && applied.current !== enabled) {
      collider.current.setEnabled(enabled)
      applied.current = enabled
    }
    const shown = readout ? readout.current?.pose : (instance?.control.pose ?? context?.pose)
    if (!collider.current || !anchor.current || !shown) return
    const body = collider.current.parent() ? colliderStates.get(collider.current.handle)?.worldParent : undefined
    fit.update(collider.current, anchor.current, body, model, shown, shape, tolerance, standing)
  })
  const setRef = (made: RapierCollider | null) => {
    collider.current = made
    fit.dirty = true
    applied.current = undefined
    assignRef(ref, made)
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

/**
 * Warns once (development builds) when the collider's model stands several times taller or shorter than the
 * instance it is put in is drawn: another model, or another `height`, than the crowd's.
 */
export function checkDrawnSize(model: MD2ModelData, standing: MD2StandingFit | undefined, instance: MD2InstanceContextValue): void {
  const fitted = getStandingBounds(model).height * (standing?.scale ?? 1)
  const drawn = getStandingBounds(instance.model).height * fitStanding(instance.model, instance.height, instance.origin).scale
  if (!(fitted > 0 && drawn > 0) || (fitted < drawn * SIZE_MISMATCH && drawn < fitted * SIZE_MISMATCH)) return
  warnOnce(
    `${model.name}:collider-size:${fitted}:${drawn}`,
    `<MD2Collider> in an <MD2Instance> (${instance.model.name ?? 'model'}) stands ${fitted.toPrecision(3)} units tall where the instance is drawn ${drawn.toPrecision(3)}: leave \`model\`, \`height\` and \`origin\` out to fit the crowd's`,
  )
}

/** How many times taller or shorter than what is drawn a collider cannot be meant. */
const SIZE_MISMATCH = 2

const UNIT_CUBOID: [number, number, number] = [1, 1, 1]
const UNIT_CAPSULE: [number, number] = [1, 1]

function assignRef<T>(ref: ForwardedRef<T>, value: T): void {
  if (typeof ref === 'function') ref(value)
  else if (ref) ref.current = value
}
