import { useFrame } from '@react-three/fiber'
import { useState } from 'react'
import { checkedNumber, type MD2AnimationCallbacks } from '../core/animation/MD2AnimationController.js'
import { DEFAULT_GROUND_GRACE, PLAYER_MODEL_FRAMES, PlayerAnimationController } from '../core/animation/PlayerAnimationController.js'
import type { MD2ModelData } from '../core/format/types.js'
import { checkPlayerModel } from './checkProps.js'
import { ANIMATION_FRAME_PRIORITY } from './useMD2Animation.js'

const isSeconds = (value: number): boolean => value >= 0 && Number.isFinite(value)

export interface UsePlayerAnimationOptions extends MD2AnimationCallbacks {
  /**
   * Seconds over which a change of animation (run to jump, stand to pain…) fades from the pose shown.
   * Default 0: as in Quake II, the client blends from the old frame into the new over one tick.
   */
  crossfade?: number
  /**
   * Seconds `input.onGround` must stay false before a jump (or fall) animation starts; default 0.1. Shorter
   * drops are a physics engine's blips of grounding (rapier's `computedGrounded()` is false for a frame as a
   * run starts), not a jump. 0: every tick reads the input as it is, as Quake II does.
   */
  groundGrace?: number
}

/**
 * Animates a standard Quake II player model (198 or 199 frames) by the game's rules: basic <
 * wave < jump < pain < attack < death, crouched variants, jump hold and land, pain and death
 * variants in turn, the weapon-change frames played backwards. Returns a stable controller that reads
 * out as every controller does (`animation`, `frame`, `playing`, `pose`, and `onFrame`, `onLoop`,
 * `onEnd`: a keyframe once a tick, in order, even when one rendered frame runs several ticks).
 *
 * Give it to `<MD2Player controller={…}>` (the player's folder is found once, there) or to
 * `<MD2Model controller={…}>`; either refuses a model without the player's frames. A parsed model
 * passed first is checked here instead (`usePlayerAnimation(model, options)`).
 */
export function usePlayerAnimation(options?: UsePlayerAnimationOptions): PlayerAnimationController
export function usePlayerAnimation(model: MD2ModelData | undefined, options?: UsePlayerAnimationOptions): PlayerAnimationController
export function usePlayerAnimation(
  first?: MD2ModelData | UsePlayerAnimationOptions,
  second?: UsePlayerAnimationOptions,
): PlayerAnimationController {
  const model = first !== undefined && 'header' in first ? (first as MD2ModelData) : undefined
  const options = (model || first === undefined ? second : (first as UsePlayerAnimationOptions)) ?? {}
  if (model) checkPlayerModel(model, PLAYER_MODEL_FRAMES, 'usePlayerAnimation')
  const [controller] = useState(() => new PlayerAnimationController())
  controller.crossfade = checkedNumber({ name: 'usePlayerAnimation' }, 'crossfade', options.crossfade, 0, isSeconds, 'seconds, 0 or more')
  controller.groundGrace = checkedNumber(
    { name: 'usePlayerAnimation' },
    'groundGrace',
    options.groundGrace,
    DEFAULT_GROUND_GRACE,
    isSeconds,
    'seconds, 0 or more',
  )
  controller.callbacks = options
  useFrame((_, delta) => controller.update(delta), ANIMATION_FRAME_PRIORITY)
  return controller
}
