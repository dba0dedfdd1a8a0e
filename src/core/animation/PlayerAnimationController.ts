import { QUAKE2_PLAYER_ANIMATIONS } from '../format/animationTable.js'
import type { MD2Animation } from '../format/types.js'
import { fadeOutWeight } from './KeyframeClock.js'
import type { MD2AnimationCallbacks } from './MD2AnimationController.js'
import type { MD2AnimationReadout } from './MD2AnimationReadout.js'
import { createPose, poseFrame, type MD2Pose } from './pose.js'
import {
  PLAYER_PRIORITY,
  createPlayerAnimationState,
  stepPlayerAnimation,
  type PlayerAnimationState,
  type PlayerInput,
} from './playerAnimation.js'

/** Quake II's server frame: the player's animation moves one keyframe per tick. */
const TICK_SECONDS = 0.1

/** `groundGrace`'s default: one tick, longer than a physics engine's blips of grounding, short to the eye. */
export const DEFAULT_GROUND_GRACE = 0.1

/** Frames of the standard player model the rules play (`usePlayerAnimation` checks a model has them). */
export const PLAYER_MODEL_FRAMES = 198

/**
 * The pose of a Quake II player driven by the game's own rules. `input` is read every 10 Hz tick:
 * `moving`, `crouched`, `onGround`, `dead` and `attacking` (the fire button held) are states; `firing`,
 * `hurt`, `gesture` and `weaponChange` are events, cleared once a tick has read them, so a game sets them
 * when they happen. Reads out as every controller does (`MD2AnimationReadout`: `pose`, `animation`,
 * `frame`, `playing`, `callbacks`).
 */
export class PlayerAnimationController implements MD2AnimationReadout {
  /** What to draw: give the controller to `<MD2Model controller={…}>` or `<MD2Player controller={…}>`. */
  readonly pose: Readonly<MD2Pose> = createPose(0)
  /** The rules' state: frame, old frame, priority… */
  readonly state: Readonly<PlayerAnimationState> = createPlayerAnimationState()
  /** The input read at each tick; write to it. */
  readonly input: PlayerInput = { onGround: true }
  /** Frames a model needs for the rules to play it: `<MD2Model controller>` refuses one with fewer. */
  readonly minFrames = PLAYER_MODEL_FRAMES
  /** Seconds over which a change of animation fades from the pose shown (0: a cut, as in Quake II). */
  crossfade = 0
  /**
   * Seconds `input.onGround` must stay false before the rules see the player in the air (default 0.1, a tick):
   * a physics engine's grounding drops for a frame or two as a run starts or over a seam (rapier's
   * `computedGrounded()`), which would play a whole jump. A real jump or fall starts its animation this late.
   * 0: the input as it is, as Quake II reads it.
   */
  groundGrace = DEFAULT_GROUND_GRACE
  /**
   * A keyframe reached (once a tick, with the frame the rules chose), a looping animation gone round
   * (stand, run, crouched), a play-once animation's last frame (attack, pain, gestures, death).
   */
  callbacks: MD2AnimationCallbacks = {}
  private time = 0
  private fadeElapsed = 0
  /** Seconds `input.onGround` has been false, up to now. */
  private airborne = 0
  private current: MD2Animation = QUAKE2_PLAYER_ANIMATIONS[0]!

  /** The player animation the rules play (`stand`, `run`, `attack`, `pain2`, `crouch_walk`, `death1`…). */
  get animation(): MD2Animation {
    return this.current
  }
  /** The frame shown, fractional between the tick's two keyframes. */
  get frame(): number {
    return poseFrame(this.pose)
  }
  /** False once a death has reached its last frame (the rules hold it), true otherwise. */
  get playing(): boolean {
    const state = this.state
    return !(state.priority === PLAYER_PRIORITY.death && state.frame === state.end)
  }

  /** Moves time on (done for you in `useFrame` by `usePlayerAnimation`). */
  update(seconds: number): void {
    if (!(seconds > 0) || !Number.isFinite(seconds)) return
    const pose = this.pose as MD2Pose
    if (pose.fadeWeight > 0) {
      this.fadeElapsed += seconds
      pose.fadeWeight = this.fadeElapsed >= this.crossfade ? 0 : fadeOutWeight(this.fadeElapsed / this.crossfade)
    }
    this.airborne = this.input.onGround === false ? this.airborne + seconds : 0
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
    const state = this.state as PlayerAnimationState
    const input = this.input
    const before = this.current
    const wasEnd = state.frame === state.end
    // Off the ground for less than the grace: a blip of the physics' grounding, not a jump.
    const grounded = input.onGround
    if (grounded === false && this.airborne < this.groundGrace) input.onGround = true
    stepPlayerAnimation(state, input)
    input.onGround = grounded
    input.firing = false
    input.hurt = false
    input.gesture = null
    input.weaponChange = false
    const animation = (this.current = playerAnimationAt(state.frame, before))
    const callbacks = this.callbacks
    callbacks.onFrame?.(state.frame, animation)
    // A loop is a basic animation (stand, run) gone round; a held attack's refire is a new shot, ended by `onEnd`.
    const basic = state.priority === PLAYER_PRIORITY.basic
    if (basic && animation === before && state.frame === animation.start && state.oldFrame === animation.end) callbacks.onLoop?.(animation)
    // A play-once animation (over the basic ones; a jump ends with its landing) showed its last frame; a death once.
    const playOnce = state.priority > PLAYER_PRIORITY.basic && state.priority !== PLAYER_PRIORITY.jump
    if (playOnce && state.frame === state.end && !(wasEnd && state.oldFrame === state.frame)) callbacks.onEnd?.(animation)
    const pose = this.pose as MD2Pose
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

/** The standard player animation holding `frame` (the one shown before, while it still does). */
function playerAnimationAt(frame: number, before: MD2Animation): MD2Animation {
  if (frame >= before.start && frame <= before.end) return before
  for (const animation of QUAKE2_PLAYER_ANIMATIONS) if (frame >= animation.start && frame <= animation.end) return animation
  return before
}
