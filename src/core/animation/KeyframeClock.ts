import { QUAKE2_FPS } from '../format/spec.js'
import type { MD2Pose } from './pose.js'
import { createPose, poseFrame } from './pose.js'

/** A run of keyframes to play, inclusive at both ends. */
export interface PlayRange {
  name?: string
  start: number
  end: number
  fps?: number
}

export interface PlayOptions {
  /** Start again from the first frame after the last (default true); false stops on the last frame. */
  loop?: boolean
  /** Keyframes per second; default the range's own, else 10 (Quake II's server rate). */
  fps?: number
  /** Playback rate multiplier (default 1). */
  speed?: number
  /** Seconds over which the pose shown now fades into the new animation (default 0: a cut, as in Quake II). */
  crossfade?: number
  /** Play from the last frame to the first. */
  reverse?: boolean
}

/** A crowd's `play` options when none are given: one object, not one per call (a game starts animations every frame). */
export const NO_PLAY_OPTIONS: Readonly<PlayOptions> = {}

/** What the player tells its owner while it advances. Called synchronously from `advance`. */
export interface KeyframeEvents {
  /** A keyframe was reached (the pose is exactly on it): footsteps, muzzle flashes. In order, once each. */
  onFrame?(frame: number): void
  /** A looping animation went round (just before its first frame is reached again). */
  onLoop?(): void
  /** A play-once animation reached its last frame. */
  onEnd?(): void
}

/**
 * The animation state of one instance, advanced by elapsed time: the seeds' start/end frame, fps,
 * current/next frame and interpolation, made exact at any frame rate (a long hitch lands on the
 * right frame and reports every keyframe it passed), with fractional still frames, reverse play and
 * crossfades in time. It writes an `MD2Pose` in place; nothing is allocated per `advance`.
 *
 * The playhead counts keyframes from the animation's first: at `position` p the pose blends
 * keyframe `floor(p)` into the next by `p − floor(p)`; a loop blends the last frame back into the first.
 */
export class KeyframeClock {
  /** What to draw, written by `advance`, `play`, `showFrame`. */
  readonly pose: MD2Pose
  /** The range being played. */
  start = 0
  end = 0
  name = ''
  fps = QUAKE2_FPS
  speed = 1
  loop = true
  reverse = false
  /** Advancing (false when paused, stopped, finished or holding a still frame). */
  playing = true
  /** A play-once animation reached its last frame. */
  finished = false
  /** Keyframes played since the start of the range, fractional; within [0, length) while looping. */
  position = 0
  /** Whether a still frame (`showFrame`) is shown instead of the range. */
  holding = false
  /** The still frame shown while `holding`. */
  heldFrame = 0
  /** Crossfade: its length in seconds and the time it has run. */
  fadeDuration = 0
  fadeElapsed = 0
  /** Blend between keyframes (false snaps to the keyframe being left, like a 10 Hz server). */
  interpolate = true
  /** Keyframe counts already reported through `onFrame` (the last one reached). */
  private reported = -1

  constructor(private readonly frameCount: number) {
    this.pose = createPose(0)
  }

  /** Number of keyframes in the range. */
  get length(): number {
    return this.end - this.start + 1
  }

  /** The keyframe index `count` keyframes into the range. */
  frameAt(count: number): number {
    return rangeFrame(this.start, this.end, this.loop, this.reverse, count)
  }

  /**
   * Starts `range`. With `crossfade` > 0 the pose shown now is held and fades out over that many
   * seconds while the new animation plays. A fade started during another fade begins from
   * whichever of the two poses shows more at that moment.
   */
  play(range: PlayRange, options: PlayOptions = {}): void {
    const crossfade = options.crossfade ?? 0
    if (crossfade > 0) this.holdCurrentPoseForFade(crossfade)
    else this.pose.fadeWeight = 0
    this.name = range.name ?? `${range.start}-${range.end}`
    this.start = Math.min(range.start, range.end)
    this.end = Math.max(range.start, range.end)
    this.fps = options.fps ?? range.fps ?? QUAKE2_FPS
    this.speed = options.speed ?? 1
    this.loop = options.loop ?? true
    this.reverse = options.reverse ?? false
    this.position = 0
    this.reported = -1
    this.finished = false
    this.playing = true
    this.holding = false
    this.writeRangePose()
  }

  /** Shows frame `frame` still; a fractional frame blends the two keyframes around it (40.25: a quarter from 40 to 41). */
  showFrame(frame: number): void {
    this.holding = true
    this.heldFrame = frame
    this.pose.fadeWeight = 0
    this.writeHeldPose()
  }

  /** Back to the range after `showFrame`, where it was. */
  release(): void {
    if (!this.holding) return
    this.holding = false
    this.writeRangePose()
  }

  pause(): void {
    this.playing = false
  }

  resume(): void {
    if (!this.finished) this.playing = true
  }

  /** Stops and goes back to the range's first frame. */
  stop(): void {
    this.playing = false
    this.finished = false
    this.position = 0
    this.reported = -1
    this.pose.fadeWeight = 0
    this.holding = false
    this.writeRangePose()
  }

  /** Progress through the range, 0 at its first frame to 1 at its last. */
  get progress(): number {
    const last = this.length - 1
    if (last === 0) return 1
    return Math.min(this.position / last, 1)
  }

  /** The frame shown, fractional (a still frame, or the playhead). */
  get frame(): number {
    if (this.holding) return this.heldFrame
    return poseFrame(this.pose)
  }

  /**
   * Moves time on by `seconds` (the frame's delta). Reports keyframes reached, loops and the end
   * through `events`. Returns whether the pose changed.
   */
  advance(seconds: number, events?: KeyframeEvents): boolean {
    const pose = this.pose
    let changed = false
    if (pose.fadeWeight > 0 && seconds > 0) {
      this.fadeElapsed += seconds
      pose.fadeWeight = this.fadeElapsed >= this.fadeDuration ? 0 : fadeOutWeight(this.fadeElapsed / this.fadeDuration)
      changed = true
    }
    if (this.holding) return changed
    if (this.reported < 0) {
      // The first frame is reached as the animation starts.
      this.reported = 0
      events?.onFrame?.(this.frameAt(0))
    }
    if (!this.playing || this.finished || !(seconds > 0)) return changed
    let step = seconds * this.speed * this.fps
    if (!(step > 0) || !Number.isFinite(step)) return changed

    const length = this.length
    // A step of laps upon laps lands where its last lap does (events report one lap at most): counting
    // keyframes one by one past 2^53 would never end.
    if (step > 2 * length) step = this.loop ? length + (step % length) : length
    let position = this.position + step
    const reached = Math.floor(position)
    // Report every keyframe the step reached, in order (a 10-second hitch reports each, capped to one lap
    // per tick; a play-once animation's lap is the one that ends on its last frame).
    const first = Math.max(this.reported + 1, (this.loop ? reached : Math.min(reached, length - 1)) - length + 1)
    for (let count = first; count <= reached; count++) {
      if (!this.loop && count >= length - 1) {
        this.finishAtEnd(events)
        return true
      }
      if (count % length === 0) events?.onLoop?.()
      events?.onFrame?.(this.frameAt(count))
    }
    this.reported = reached
    if (!this.loop && position >= length - 1) {
      this.finishAtEnd(events)
      return true
    }
    if (this.loop && position >= length) {
      // Keep the playhead small; the reported count moves with it.
      const laps = Math.floor(position / length)
      position -= laps * length
      this.reported -= laps * length
    }
    this.position = position
    this.writeRangePose()
    return true
  }

  private finishAtEnd(events: KeyframeEvents | undefined): void {
    const last = this.length - 1
    if (this.reported < last) events?.onFrame?.(this.frameAt(last))
    this.reported = last
    this.position = last
    this.finished = true
    this.playing = false
    this.writeRangePose()
    events?.onEnd?.()
  }

  private writeRangePose(): void {
    const pose = this.pose
    const count = Math.floor(this.position)
    const from = this.frameAt(count)
    const to = !this.loop && count >= this.length - 1 ? from : this.frameAt(count + 1)
    const t = this.interpolate ? this.position - count : 0
    pose.from = from
    // `to` stays the next keyframe even at t = 0: Quake II lights a model by the frame it blends towards.
    pose.to = to
    pose.t = t
  }

  private writeHeldPose(): void {
    const pose = this.pose
    const last = this.frameCount - 1
    const frame = Math.min(Math.max(this.heldFrame, 0), last)
    const whole = Math.floor(frame)
    const t = frame - whole
    // A whole frame is that frame alone (lit by its own normals, as Quake II shows a still frame).
    pose.from = whole
    pose.to = t === 0 ? whole : Math.min(whole + 1, last)
    pose.t = t
  }

  private holdCurrentPoseForFade(seconds: number): void {
    const pose = this.pose
    if (pose.fadeWeight < 0.5) {
      // The incoming pose shows more: it becomes the outgoing one.
      pose.fadeFrom = pose.from
      pose.fadeTo = pose.to
      pose.fadeT = pose.t
    }
    pose.fadeWeight = 1
    this.fadeDuration = seconds
    this.fadeElapsed = 0
  }
}

/**
 * The keyframe `count` keyframes into the range `start…end`: looping round, or stopping on the last
 * frame; counted from the end when played in reverse.
 */
export function rangeFrame(start: number, end: number, loop: boolean, reverse: boolean, count: number): number {
  const length = end - start + 1
  const step = loop ? count % length : Math.min(count, length - 1)
  return reverse ? end - step : start + step
}

const FADE_EASE = 2
const FADE_FLOOR = Math.exp(-FADE_EASE)

/**
 * The outgoing pose's weight at `x` ∈ [0, 1] of a crossfade: an exponential ease-out, falling fastest
 * at first and landing gently on 0. A linear fade ends at full speed, so a limb of the incoming
 * animation moves its own step plus the fade's; easing out keeps the fastest vertex close to its
 * speed in the incoming animation.
 */
export function fadeOutWeight(x: number): number {
  return (Math.exp(-FADE_EASE * x) - FADE_FLOOR) / (1 - FADE_FLOOR)
}
