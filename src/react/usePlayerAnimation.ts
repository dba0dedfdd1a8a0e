import { useFrame } from '@react-three/fiber'
import { useState } from 'react'
import { fadeOutWeight } from '../core/animation/range-player.js'
import { createPose, type MD2Pose } from '../core/animation/pose.js'
import {
  createPlayerAnimationState,
  stepPlayerAnimation,
  type PlayerAnimationState,
  type PlayerInput,
} from '../core/animation/quake2-player-rules.js'
import { MD2Error } from '../core/errors.js'
import type { MD2Model as MD2Data } from '../core/format/types.js'
import { ANIMATION_FRAME_PRIORITY } from './useMD2Animation.js'

/** Quake II's server frame: the player's animation moves one keyframe per tick. */
const TICK_SECONDS = 0.1

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
 * The pose of a Quake II player driven by the game's own rules. `input` is read every 10 Hz tick:
 * `moving`, `crouched`, `onGround` and `dead` are states; `firing`, `hurt`, `gesture` and
 * `weaponChange` are events, cleared once a tick has read them, so a game sets them when they happen.
 */
export interface PlayerAnimationController {
  /** What to draw: give the controller to `<MD2Model controller={…}>`. */
  readonly pose: Readonly<MD2Pose>
  /** The rules' state: frame, old frame, priority… */
  readonly state: Readonly<PlayerAnimationState>
  /** The input read at each tick; write to it. */
  readonly input: PlayerInput
  /** Moves time on (done for you in `useFrame`). */
  update(seconds: number): void
}

class PlayerAnimator implements PlayerAnimationController {
  readonly pose = createPose(0)
  readonly state = createPlayerAnimationState()
  readonly input: PlayerInput = { onGround: true }
  crossfade = 0
  onFrame: ((frame: number) => void) | undefined
  private time = 0
  private fadeElapsed = 0

  update(seconds: number): void {
    if (!(seconds > 0) || !Number.isFinite(seconds)) return
    const pose = this.pose
    if (pose.fadeWeight > 0) {
      this.fadeElapsed += seconds
      pose.fadeWeight = this.fadeElapsed >= this.crossfade ? 0 : fadeOutWeight(this.fadeElapsed / this.crossfade)
    }
    // A long hitch runs at most a second of ticks: the rules only need to catch up with the input.
    this.time = Math.min(this.time + seconds, 1)
    while (this.time >= TICK_SECONDS) {
      this.time -= TICK_SECONDS
      this.tick()
    }
    const state = this.state
    pose.to = state.frame
    pose.t = this.time / TICK_SECONDS
  }

  private tick(): void {
    const state = this.state
    const input = this.input
    stepPlayerAnimation(state, input)
    input.firing = false
    input.hurt = false
    input.gesture = null
    input.weaponChange = false
    this.onFrame?.(state.frame)
    const pose = this.pose
    const step = state.frame - state.oldFrame
    if (this.crossfade > 0 && step !== 1 && step !== -1 && step !== 0) {
      // A new animation: fade from what is shown now instead of blending across unrelated frames.
      if (pose.fadeWeight < 0.5) {
        pose.fadeFrom = pose.from
        pose.fadeTo = pose.to
        pose.fadeT = pose.t
      }
      pose.fadeWeight = 1
      this.fadeElapsed = 0
      pose.from = state.frame
    } else {
      pose.from = state.oldFrame
    }
  }
}

/**
 * Animates a standard Quake II player model (198 or 199 frames) by the game's rules: basic <
 * wave < jump < pain < attack < death, crouched variants, jump hold and land, pain and death
 * variants in turn, the weapon-change frames played backwards. Returns a stable controller.
 */
export function usePlayerAnimation(model: MD2Data, options: UsePlayerAnimationOptions = {}): PlayerAnimationController {
  const frames = model.header.numFrames
  if (frames < 198) {
    throw new MD2Error(
      'BAD_ARGUMENT',
      `usePlayerAnimation needs a Quake II player model (198 frames); ${model.name ?? 'this model'} has ${frames}`,
    )
  }
  const [animator] = useState(() => new PlayerAnimator())
  animator.crossfade =
    options.crossfade !== undefined && options.crossfade > 0 && Number.isFinite(options.crossfade) ? options.crossfade : 0
  animator.onFrame = options.onFrame
  useFrame((_, delta) => animator.update(delta), ANIMATION_FRAME_PRIORITY)
  return animator
}
