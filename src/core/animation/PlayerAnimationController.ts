import { fadeOutWeight } from './KeyframeClock.js'
import { createPose, type MD2Pose } from './pose.js'
import { createPlayerAnimationState, stepPlayerAnimation, type PlayerAnimationState, type PlayerInput } from './playerAnimation.js'

/** Quake II's server frame: the player's animation moves one keyframe per tick. */
const TICK_SECONDS = 0.1

/**
 * The pose of a Quake II player driven by the game's own rules. `input` is read every 10 Hz tick:
 * `moving`, `crouched`, `onGround` and `dead` are states; `firing`, `hurt`, `gesture` and
 * `weaponChange` are events, cleared once a tick has read them, so a game sets them when they happen.
 */
export class PlayerAnimationController {
  /** What to draw: give the controller to `<MD2Model controller={…}>`. */
  readonly pose: Readonly<MD2Pose> = createPose(0)
  /** The rules' state: frame, old frame, priority… */
  readonly state: Readonly<PlayerAnimationState> = createPlayerAnimationState()
  /** The input read at each tick; write to it. */
  readonly input: PlayerInput = { onGround: true }
  /** Seconds over which a change of animation fades from the pose shown (0: a cut, as in Quake II). */
  crossfade = 0
  /** A keyframe reached: once a tick, with the frame the rules chose. */
  onFrame: ((frame: number) => void) | undefined
  private time = 0
  private fadeElapsed = 0

  /** Moves time on (done for you in `useFrame` by `usePlayerAnimation`). */
  update(seconds: number): void {
    if (!(seconds > 0) || !Number.isFinite(seconds)) return
    const pose = this.pose as MD2Pose
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
    const state = this.state as PlayerAnimationState
    const input = this.input
    stepPlayerAnimation(state, input)
    input.firing = false
    input.hurt = false
    input.gesture = null
    input.weaponChange = false
    this.onFrame?.(state.frame)
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
