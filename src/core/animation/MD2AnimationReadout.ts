import type { MD2AnimationCallbacks } from './MD2AnimationController.js'
import type { MD2Pose } from './pose.js'
import type { MD2Animation } from '../format/types.js'

/**
 * What every animation controller reads out, whoever drives it: `MD2AnimationController` (props, `play`),
 * `PlayerAnimationController` (Quake II's player rules) and `MD2CrowdInstance` (one instance of a crowd).
 * Code that shows, logs or reacts to an animation takes this and works with all three.
 */
export interface MD2AnimationReadout {
  /** What to draw now: read it, never write it. */
  readonly pose: Readonly<MD2Pose>
  /** The animation playing (or last played): its name, frame range and rate. */
  readonly animation: MD2Animation
  /** The frame shown, fractional: 40.25 is a quarter of the way from frame 40 to 41. */
  readonly frame: number
  /** Whether time moves the animation on (false when paused, stopped, finished or holding a frame). */
  readonly playing: boolean
  /** A keyframe reached, a loop gone round, a play-once animation's end; replaceable at any time. */
  callbacks: MD2AnimationCallbacks
}
