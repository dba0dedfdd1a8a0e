import { useFrame } from '@react-three/fiber'
import { useState } from 'react'
import { PlayerAnimationController } from '../core/animation/PlayerAnimationController.js'
import { MD2Error } from '../core/MD2Error.js'
import type { MD2ModelData } from '../core/format/types.js'
import { ANIMATION_FRAME_PRIORITY } from './useMD2Animation.js'

export interface UsePlayerAnimationOptions {
  /**
   * Seconds over which a change of animation (run to jump, stand to pain…) fades from the pose shown.
   * Default 0: as in Quake II, the client blends from the old frame into the new over one tick.
   */
  crossfade?: number
  /**
   * A keyframe reached: once a tick (10 Hz), with the frame the rules chose, in order, even when one
   * rendered frame runs several ticks (footsteps on the run's 41 and 44, muzzle flashes).
   */
  onFrame?(frame: number): void
}

/**
 * Animates a standard Quake II player model (198 or 199 frames) by the game's rules: basic <
 * wave < jump < pain < attack < death, crouched variants, jump hold and land, pain and death
 * variants in turn, the weapon-change frames played backwards. Returns a stable controller.
 */
export function usePlayerAnimation(model: MD2ModelData, options: UsePlayerAnimationOptions = {}): PlayerAnimationController {
  const frames = model.header.numFrames
  if (frames < 198) {
    throw new MD2Error(
      'BAD_ARGUMENT',
      `usePlayerAnimation needs a Quake II player model (198 frames); ${model.name ?? 'this model'} has ${frames}`,
    )
  }
  const [controller] = useState(() => new PlayerAnimationController())
  controller.crossfade =
    options.crossfade !== undefined && options.crossfade > 0 && Number.isFinite(options.crossfade) ? options.crossfade : 0
  controller.onFrame = options.onFrame
  useFrame((_, delta) => controller.update(delta), ANIMATION_FRAME_PRIORITY)
  return controller
}
