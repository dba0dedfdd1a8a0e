/**
 * The crowd clock as it was before it kept stored rows (it stepped every instance on every `advance`): the
 * reference the time-based `CrowdClock`'s poses and events are checked against. Test-only.
 */
import { fadeOutWeight, rangeFrame, type PlayOptions, type PlayRange } from '../../src/core/animation/KeyframeClock'
import type { MD2Pose } from '../../src/core/animation/pose'
import { QUAKE2_FPS } from '../../src/core/format/spec'
import { CROWD_POSE_STRIDE, writeCrowdPose, type CrowdEvents } from '../../src/core/animation/CrowdClock'

// Per-instance flag bits.
const LOOP = 1 << 0
const PLAYING = 1 << 1
const FINISHED = 1 << 2
const REVERSE = 1 << 3
const HOLDING = 1 << 4
const NO_INTERPOLATION = 1 << 5
/** Posed from outside (`setPose`): advance leaves it alone. */
const EXTERNAL = 1 << 6

/**
 * The animation state of many instances in typed arrays, one slot each, advanced together: the same
 * rules as `KeyframeClock` (ranges, fps, speed, loop or play once, reverse, fractional still frames,
 * eased crossfades from the pose shown), without an object per instance and without events. Poses are
 * written into `poses` (`CROWD_POSE_STRIDE` floats per instance, the layout `MD2Pose` describes).
 * Nothing is allocated after construction.
 */
export class SteppedCrowdClock {
  readonly poses: Float64Array
  private readonly start: Int32Array
  private readonly end: Int32Array
  private readonly fps: Float64Array
  private readonly speed: Float64Array
  private readonly position: Float64Array
  private readonly held: Float64Array
  private readonly fadeDuration: Float64Array
  private readonly fadeElapsed: Float64Array
  private readonly flags: Uint8Array
  /** Keyframe counts already reported through `events.onFrame` (−1: not even the first). */
  private readonly reported: Float64Array
  /**
   * What instances tell their owner while they advance, as `KeyframeClock`'s events with the instance
   * first: a keyframe reached (once each, in order, at any frame rate), a loop gone round, a play-once
   * animation ended. Called synchronously from `advance`; nothing is allocated.
   */
  events: CrowdEvents | undefined

  constructor(
    /** Slots. */
    readonly capacity: number,
    /** Keyframes in the model (still frames are clamped to them). */
    readonly frameCount: number,
  ) {
    this.poses = new Float64Array(capacity * CROWD_POSE_STRIDE)
    this.start = new Int32Array(capacity)
    this.end = new Int32Array(capacity)
    this.fps = new Float64Array(capacity).fill(QUAKE2_FPS)
    this.speed = new Float64Array(capacity).fill(1)
    this.position = new Float64Array(capacity)
    this.held = new Float64Array(capacity)
    this.fadeDuration = new Float64Array(capacity)
    this.fadeElapsed = new Float64Array(capacity)
    // As a new KeyframeClock: looping, playing, on frame 0.
    this.flags = new Uint8Array(capacity).fill(LOOP | PLAYING)
    this.reported = new Float64Array(capacity).fill(-1)
  }

  /** Starts `range` on instance `i` (see `KeyframeClock.play`). */
  play(i: number, range: PlayRange, options: PlayOptions = {}): void {
    const crossfade = options.crossfade ?? 0
    const o = i * CROWD_POSE_STRIDE
    const p = this.poses
    if (crossfade > 0) {
      if (p[o + 3]! < 0.5) {
        p[o + 4] = p[o]!
        p[o + 5] = p[o + 1]!
        p[o + 6] = p[o + 2]!
      }
      p[o + 3] = 1
      this.fadeDuration[i] = crossfade
      this.fadeElapsed[i] = 0
    } else p[o + 3] = 0
    this.start[i] = Math.min(range.start, range.end)
    this.end[i] = Math.max(range.start, range.end)
    this.fps[i] = options.fps ?? range.fps ?? QUAKE2_FPS
    this.speed[i] = options.speed ?? 1
    this.position[i] = 0
    this.reported[i] = -1
    this.flags[i] = ((options.loop ?? true) ? LOOP : 0) | PLAYING | (options.reverse ? REVERSE : 0) | (this.flags[i]! & NO_INTERPOLATION)
    this.writeRangePose(i)
  }

  /** Shows `pose` on instance `i` as given (an animation controller of its own drives it); `play` or `showFrame` take it back. */
  setPose(i: number, pose: Readonly<MD2Pose>): void {
    this.flags[i] = this.flags[i]! | EXTERNAL
    writeCrowdPose(this.poses, i, pose)
  }

  /** Shows `frame` still on instance `i` (fractional: a blend of the two keyframes around it). */
  showFrame(i: number, frame: number): void {
    this.flags[i] = (this.flags[i]! | HOLDING) & ~EXTERNAL
    this.held[i] = frame
    const o = i * CROWD_POSE_STRIDE
    const p = this.poses
    p[o + 3] = 0
    const clamped = Math.min(Math.max(frame, 0), this.frameCount - 1)
    const whole = Math.floor(clamped)
    const t = clamped - whole
    p[o] = whole
    p[o + 1] = t === 0 ? whole : Math.min(whole + 1, this.frameCount - 1)
    p[o + 2] = t
  }

  /** Instance `i` back to its range after `showFrame` (or a pose set from outside), where it was. */
  release(i: number): void {
    const flags = this.flags[i]!
    if (!(flags & (HOLDING | EXTERNAL))) return
    this.flags[i] = flags & ~(HOLDING | EXTERNAL)
    this.writeRangePose(i)
  }

  /** Stops instance `i` and shows its range's first frame. */
  stop(i: number): void {
    this.flags[i] = this.flags[i]! & ~(PLAYING | FINISHED | HOLDING | EXTERNAL)
    this.position[i] = 0
    this.reported[i] = -1
    this.poses[i * CROWD_POSE_STRIDE + 3] = 0
    this.writeRangePose(i)
  }

  /** Instance `i`'s keyframes per second and rate, without restarting it. */
  setRate(i: number, fps: number, speed: number): void {
    this.fps[i] = fps
    this.speed[i] = speed
  }

  pause(i: number): void {
    this.flags[i] = this.flags[i]! & ~PLAYING
  }

  resume(i: number): void {
    if (!(this.flags[i]! & FINISHED)) this.flags[i] = this.flags[i]! | PLAYING
  }

  /** Snap to keyframes (false), as a 10 Hz server shows them, or blend (true, the default). */
  setInterpolate(i: number, on: boolean): void {
    this.flags[i] = on ? this.flags[i]! & ~NO_INTERPOLATION : this.flags[i]! | NO_INTERPOLATION
  }

  isPlaying(i: number): boolean {
    return (this.flags[i]! & PLAYING) !== 0
  }

  /** Whether instance `i` shows a still frame or a pose set from outside, rather than its range. */
  isHolding(i: number): boolean {
    return (this.flags[i]! & (HOLDING | EXTERNAL)) !== 0
  }

  isFinished(i: number): boolean {
    return (this.flags[i]! & FINISHED) !== 0
  }

  /** Moves instances `0 … count − 1` on by `seconds`. */
  advance(seconds: number, count = this.capacity): void {
    // A zero step still reports the first frame of animations just started, as KeyframeClock does.
    if (!(seconds >= 0) || !Number.isFinite(seconds)) return
    const p = this.poses
    for (let i = 0; i < count; i++) {
      const o = i * CROWD_POSE_STRIDE
      if (this.flags[i]! & EXTERNAL) continue
      if (p[o + 3]! > 0) {
        const elapsed = (this.fadeElapsed[i] = this.fadeElapsed[i]! + seconds)
        const duration = this.fadeDuration[i]!
        p[o + 3] = elapsed >= duration ? 0 : fadeOutWeight(elapsed / duration)
      }
      const flags = this.flags[i]!
      if (flags & HOLDING) continue
      const events = this.events
      if (events !== undefined && this.reported[i]! < 0) {
        // The first frame is reached as the animation starts.
        this.reported[i] = 0
        events.onFrame?.(i, this.frameAt(i, 0))
      }
      if (!(flags & PLAYING) || flags & FINISHED) continue
      const step = seconds * this.speed[i]! * this.fps[i]!
      if (!(step > 0) || !Number.isFinite(step)) continue
      const length = this.end[i]! - this.start[i]! + 1
      let position = this.position[i]! + step
      const finishing = !(flags & LOOP) && position >= length - 1
      if (events !== undefined) this.report(i, events, Math.floor(position), length, finishing)
      if (finishing) {
        this.position[i] = length - 1
        this.flags[i] = (flags | FINISHED) & ~PLAYING
      } else {
        if (flags & LOOP && position >= length) {
          const laps = Math.floor(position / length)
          position -= laps * length
          // The reported count moves with the playhead.
          this.reported[i] = this.reported[i]! - laps * length
        }
        this.position[i] = position
      }
      this.writeRangePose(i)
      if (finishing) events?.onEnd?.(i)
    }
  }

  /**
   * Reports the keyframes instance `i` reached up to count `reached`, in order (one lap at most, as
   * `KeyframeClock` caps a long hitch); a play-once animation that is finishing reports its last frame.
   */
  private report(i: number, events: CrowdEvents, reached: number, length: number, finishing: boolean): void {
    const last = finishing ? length - 2 : reached
    // The lap a play-once animation reports is the one that ends on its last frame.
    const lapEnd = finishing ? length - 1 : reached
    for (let count = Math.max(this.reported[i]! + 1, lapEnd - length + 1); count <= last; count++) {
      if (count % length === 0) events.onLoop?.(i)
      events.onFrame?.(i, this.frameAt(i, count))
    }
    if (finishing) {
      if (this.reported[i]! < length - 1) events.onFrame?.(i, this.frameAt(i, length - 1))
      this.reported[i] = length - 1
    } else this.reported[i] = reached
  }

  private frameAt(i: number, count: number): number {
    const flags = this.flags[i]!
    return rangeFrame(this.start[i]!, this.end[i]!, (flags & LOOP) !== 0, (flags & REVERSE) !== 0, count)
  }

  private writeRangePose(i: number): void {
    const o = i * CROWD_POSE_STRIDE
    const p = this.poses
    const position = this.position[i]!
    const count = Math.floor(position)
    const length = this.end[i]! - this.start[i]! + 1
    const from = this.frameAt(i, count)
    p[o] = from
    p[o + 1] = !(this.flags[i]! & LOOP) && count >= length - 1 ? from : this.frameAt(i, count + 1)
    p[o + 2] = this.flags[i]! & NO_INTERPOLATION ? 0 : position - count
  }
}
