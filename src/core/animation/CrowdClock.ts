import { fadeOutWeight, rangeFrame, type PlayOptions, type PlayRange, NO_PLAY_OPTIONS } from './KeyframeClock.js'
import type { MD2Pose } from './pose.js'
import { QUAKE2_FPS } from '../format/spec.js'
import { EventSchedule } from './EventSchedule.js'

// Per-instance flag bits.
export const CLOCK_LOOP = 1 << 0
const PLAYING = 1 << 1
const FINISHED = 1 << 2
export const CLOCK_REVERSE = 1 << 3
const HOLDING = 1 << 4
export const CLOCK_NO_INTERPOLATION = 1 << 5
/** Posed from outside (`setPose`): time leaves it alone. */
const EXTERNAL = 1 << 6
const LOOP = CLOCK_LOOP
const REVERSE = CLOCK_REVERSE
const NO_INTERPOLATION = CLOCK_NO_INTERPOLATION

/** What a crowd's instances report while they advance (see `CrowdAnimation.events`). */
export interface CrowdEvents {
  /** Instance `i` reached keyframe `frame` (footsteps, muzzle flashes). */
  onFrame?(i: number, frame: number): void
  /** Instance `i`'s looping animation went round. */
  onLoop?(i: number): void
  /** Instance `i`'s play-once animation reached its last frame. */
  onEnd?(i: number): void
}

/**
 * An instance's stored row as a shader reads it (12 floats, `writeRow`): `CLOCK` where the playhead was, when
 * (seconds from the shader's epoch), its rate (keyframes per second, 0: still) and the range's length; `RANGE`
 * the range's first keyframe, the `ROW_…` flags, the crossfade's start and length (0: none); `FADE` the
 * crossfade's outgoing pose (from, to, t). A row flagged `ROW_POSED` holds a pose worked out already: from,
 * to, t, 1; 0, flags, 0, the crossfade's weight; the outgoing pose.
 */
export const ROW_CLOCK = 0
export const ROW_RANGE = 4
export const ROW_FADE = 8
export const ROW_LOOP = 1
export const ROW_REVERSE = 2
export const ROW_NO_INTERPOLATION = 4
export const ROW_POSED = 8
/** Set by the row's owner: the instance is not drawn. */
export const ROW_HIDDEN = 16

/** Floats per instance in `poses`: from, to, t, fadeWeight, fadeFrom, fadeTo, fadeT, 0 (two vec4s for a shader). */
export const CROWD_POSE_STRIDE = 8

/** Instance `i`'s pose from a crowd's `poses` array into `pose`. */
export function readCrowdPose(poses: Float64Array, i: number, pose: MD2Pose): MD2Pose {
  const o = i * CROWD_POSE_STRIDE
  pose.from = poses[o]!
  pose.to = poses[o + 1]!
  pose.t = poses[o + 2]!
  pose.fadeWeight = poses[o + 3]!
  pose.fadeFrom = poses[o + 4]!
  pose.fadeTo = poses[o + 5]!
  pose.fadeT = poses[o + 6]!
  return pose
}

/** `pose` into instance `i`'s place in a crowd's `poses` array. */
export function writeCrowdPose(poses: Float64Array, i: number, pose: Readonly<MD2Pose>): void {
  const o = i * CROWD_POSE_STRIDE
  poses[o] = pose.from
  poses[o + 1] = pose.to
  poses[o + 2] = pose.t
  poses[o + 3] = pose.fadeWeight
  poses[o + 4] = pose.fadeFrom
  poses[o + 5] = pose.fadeTo
  poses[o + 6] = pose.fadeT
}

/**
 * The animation state of many instances in typed arrays, one slot each: the same rules as `KeyframeClock`
 * (ranges, fps, speed, loop or play once, reverse, fractional still frames, eased crossfades from the pose
 * shown), without an object per instance. Each instance is stored as what changes only when it is told to
 * (its range, rate, the time its playhead was last placed and where, its crossfade's start, length and
 * outgoing pose), so that `advance` only moves the crowd's time on: a pose is computed from the stored
 * row when asked (`pose`, or a shader from the same row), and events come from a schedule of each listened
 * instance's next keyframe time, not a scan. Nothing is allocated after construction.
 */
export class CrowdClock {
  /** The crowd's time in seconds (the sum of `advance`'s steps). The clock's times are on it. */
  now = 0
  /**
   * Where the rows' times (`writeRow`) count from: moved on to `now` by `rebase`, so that a shader's single
   * floats keep them near 0. Read from here, not passed: V8 boxes a fractional number passed by value.
   */
  epoch = 0
  /** Poses as last computed (`pose(i)` refreshes slot `i`); the crossfade's outgoing pose and a pose set from outside are kept here. */
  readonly poses: Float64Array
  /** Range first and last keyframes. */
  readonly start: Int32Array
  readonly end: Int32Array
  /** Keyframes per second, and the rate they are played at. */
  readonly fps: Float64Array
  readonly speed: Float64Array
  /** Where the playhead was (keyframes from the range's first) at `anchorTime`; it moves on at `rate` from there while playing. */
  readonly anchorPosition: Float64Array
  readonly anchorTime: Float64Array
  /** The still frame shown (`showFrame`). */
  readonly held: Float64Array
  readonly fadeStart: Float64Array
  /** Seconds of the crossfade; 0: none. */
  readonly fadeDuration: Float64Array
  readonly flags: Uint8Array
  /** Keyframe counts already reported through `events.onFrame` (−1: not even the first), on the anchor's lap. */
  private readonly reported: Float64Array
  /** Each listened instance's next keyframe time. */
  private readonly schedule: EventSchedule
  /** Slots told anything (the schedule covers `0 … used − 1` when `events` is set). */
  private used = 0
  /** Instances whose stored row changed since `takeChanged` (a row writer uploads theirs). */
  readonly changed: Int32Array
  changedCount = 0
  private readonly isChanged: Uint8Array
  private handlers: CrowdEvents | undefined

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
    this.anchorPosition = new Float64Array(capacity)
    this.anchorTime = new Float64Array(capacity)
    this.held = new Float64Array(capacity)
    this.fadeStart = new Float64Array(capacity)
    this.fadeDuration = new Float64Array(capacity)
    // As a new KeyframeClock: looping, playing, on frame 0.
    this.flags = new Uint8Array(capacity).fill(LOOP | PLAYING)
    this.reported = new Float64Array(capacity).fill(-1)
    this.schedule = new EventSchedule(capacity)
    this.changed = new Int32Array(capacity)
    this.isChanged = new Uint8Array(capacity)
  }

  /**
   * What instances tell their owner as time passes, as `KeyframeClock`'s events with the instance first:
   * a keyframe reached (once each, in order, at any frame rate), a loop gone round, a play-once animation
   * ended. Called synchronously from `advance`, for the instances whose next keyframe time has come.
   */
  get events(): CrowdEvents | undefined {
    return this.handlers
  }

  set events(events: CrowdEvents | undefined) {
    const before = this.handlers
    this.handlers = events
    if (!events) this.schedule.clear()
    else if (!before) for (let i = 0; i < this.used; i++) this.schedule.set(i, this.now)
  }

  /** Keyframes per second the playhead of instance `i` moves at (0 when it does not move). */
  rate(i: number): number {
    return this.moves(i) ? this.speed[i]! * this.fps[i]! : 0
  }

  /**
   * Whether instance `i`'s playhead moves with time (playing, at a finite rate above 0). Per-instance paths
   * test this and multiply the rate out themselves: V8 boxes a fractional number a call returns.
   */
  private moves(i: number): boolean {
    const flags = this.flags[i]!
    if (!(flags & PLAYING) || flags & (FINISHED | HOLDING | EXTERNAL)) return false
    const rate = this.speed[i]! * this.fps[i]!
    return rate > 0 && Number.isFinite(rate)
  }

  /** Starts `range` on instance `i` (see `KeyframeClock.play`). */
  play(i: number, range: PlayRange, options: PlayOptions = NO_PLAY_OPTIONS): void {
    const crossfade = options.crossfade ?? 0
    const o = i * CROWD_POSE_STRIDE
    const p = this.poses
    if (crossfade > 0) {
      this.pose(i)
      if (p[o + 3]! < 0.5) {
        p[o + 4] = p[o]!
        p[o + 5] = p[o + 1]!
        p[o + 6] = p[o + 2]!
      }
      this.fadeDuration[i] = crossfade
      this.fadeStart[i] = this.now
    } else this.fadeDuration[i] = 0
    this.start[i] = Math.min(range.start, range.end)
    this.end[i] = Math.max(range.start, range.end)
    this.fps[i] = options.fps ?? range.fps ?? QUAKE2_FPS
    this.speed[i] = options.speed ?? 1
    this.flags[i] = ((options.loop ?? true) ? LOOP : 0) | PLAYING | (options.reverse ? REVERSE : 0) | (this.flags[i]! & NO_INTERPOLATION)
    this.anchor(i, 0)
    this.reported[i] = -1
    this.told(i)
  }

  /** Shows `pose` on instance `i` as given (an animation controller of its own drives it); `play` or `showFrame` take it back. */
  setPose(i: number, pose: Readonly<MD2Pose>): void {
    this.freeze(i)
    this.flags[i] = this.flags[i]! | EXTERNAL
    writeCrowdPose(this.poses, i, pose)
    this.told(i)
  }

  /** Shows `frame` still on instance `i` (fractional: a blend of the two keyframes around it). */
  showFrame(i: number, frame: number): void {
    this.freeze(i)
    this.flags[i] = (this.flags[i]! | HOLDING) & ~EXTERNAL
    this.held[i] = frame
    this.fadeDuration[i] = 0
    this.told(i)
  }

  /** Instance `i` back to its range after `showFrame` (or a pose set from outside), where it was. */
  release(i: number): void {
    const flags = this.flags[i]!
    if (!(flags & (HOLDING | EXTERNAL))) return
    this.flags[i] = flags & ~(HOLDING | EXTERNAL)
    this.anchorTime[i] = this.now
    this.told(i)
  }

  /** Stops instance `i` and shows its range's first frame. */
  stop(i: number): void {
    this.flags[i] = this.flags[i]! & ~(PLAYING | FINISHED | HOLDING | EXTERNAL)
    this.anchor(i, 0)
    this.reported[i] = -1
    this.fadeDuration[i] = 0
    this.told(i)
  }

  /** Instance `i`'s keyframes per second and rate, without restarting it. */
  setRate(i: number, fps: number, speed: number): void {
    this.freeze(i)
    this.fps[i] = fps
    this.speed[i] = speed
    this.told(i)
  }

  pause(i: number): void {
    this.freeze(i)
    this.flags[i] = this.flags[i]! & ~PLAYING
    this.told(i)
  }

  resume(i: number): void {
    this.freeze(i)
    if (!(this.flags[i]! & FINISHED)) this.flags[i] = this.flags[i]! | PLAYING
    this.told(i)
  }

  /** Snap to keyframes (false), as a 10 Hz server shows them, or blend (true, the default). */
  setInterpolate(i: number, on: boolean): void {
    this.flags[i] = on ? this.flags[i]! & ~NO_INTERPOLATION : this.flags[i]! | NO_INTERPOLATION
    this.told(i)
  }

  isPlaying(i: number): boolean {
    return (this.flags[i]! & PLAYING) !== 0 && !this.finishes(i)
  }

  /** Whether instance `i` shows a still frame or a pose set from outside, rather than its range. */
  isHolding(i: number): boolean {
    return (this.flags[i]! & (HOLDING | EXTERNAL)) !== 0
  }

  isFinished(i: number): boolean {
    return (this.flags[i]! & FINISHED) !== 0 || this.finishes(i)
  }

  /**
   * Moves the crowd's time on by `seconds`: no instance is visited, except those with listeners whose
   * next keyframe has come (their events are reported, in order per instance).
   */
  advance(seconds: number, count = this.capacity): void {
    this.use(count)
    // A zero step still reports the first frame of animations just started, as KeyframeClock does.
    if (!(seconds >= 0) || !Number.isFinite(seconds)) return
    this.now += seconds
    const events = this.handlers
    if (!events) return
    const schedule = this.schedule
    while (schedule.size > 0 && schedule.nextTime() <= this.now) this.report(schedule.pop(), events)
  }

  /** Slots `0 … count − 1` are in use: with `events` set, those newly in use are listened to from now. */
  use(count: number): void {
    if (count <= this.used) return
    if (this.handlers) for (let i = this.used; i < count; i++) this.schedule.set(i, this.now)
    this.used = count
  }

  /** Instance `i` shows the pose written into its slot of `poses` from outside, as `setPose` (its playhead left where it was last placed). */
  posedOutside(i: number): void {
    this.flags[i] = this.flags[i]! | EXTERNAL
    this.markChanged(i)
  }

  /** Instance `i`'s pose now, written into its slot of `poses` (and returned as that slot's offset). */
  pose(i: number): number {
    const o = i * CROWD_POSE_STRIDE
    const flags = this.flags[i]!
    if (flags & EXTERNAL) return o
    const p = this.poses
    const duration = this.fadeDuration[i]!
    const elapsed = this.now - this.fadeStart[i]!
    p[o + 3] = !(duration > 0) || elapsed >= duration ? 0 : fadeOutWeight(elapsed / duration)
    if (flags & HOLDING) {
      const clamped = Math.min(Math.max(this.held[i]!, 0), this.frameCount - 1)
      const whole = Math.floor(clamped)
      const t = clamped - whole
      p[o] = whole
      p[o + 1] = t === 0 ? whole : Math.min(whole + 1, this.frameCount - 1)
      p[o + 2] = t
      return o
    }
    // The playhead now, in keyframes from the range's first, on its lap (at the last for a play-once ended).
    const length = this.end[i]! - this.start[i]! + 1
    const moves = this.moves(i)
    let position = this.anchorPosition[i]!
    if (moves) position += (this.now - this.anchorTime[i]!) * this.speed[i]! * this.fps[i]!
    if (!(flags & LOOP)) {
      if (moves && position >= length - 1) position = length - 1
    } else if (position >= length) position -= Math.floor(position / length) * length
    const count = Math.floor(position)
    const from = this.frameAt(i, count)
    p[o] = from
    p[o + 1] = !(flags & LOOP) && count >= length - 1 ? from : this.frameAt(i, count + 1)
    p[o + 2] = flags & NO_INTERPOLATION ? 0 : position - count
    return o
  }

  /**
   * Writes instance `i`'s stored row (`ROW_CLOCK`…) at `out[at]`, its times from `epoch`; a still frame or a
   * pose set from outside as a posed row.
   */
  writeRow(i: number, out: Float32Array, at: number): void {
    const epoch = this.epoch
    const flags = this.flags[i]!
    const p = this.poses
    if (flags & (HOLDING | EXTERNAL)) {
      const o = this.pose(i)
      out[at] = p[o]!
      out[at + 1] = p[o + 1]!
      out[at + 2] = p[o + 2]!
      out[at + 3] = 1
      out[at + 4] = 0
      out[at + 5] = ROW_POSED
      out[at + 6] = 0
      out[at + 7] = p[o + 3]!
    } else {
      out[at] = this.anchorPosition[i]!
      out[at + 1] = this.anchorTime[i]! - epoch
      out[at + 2] = this.moves(i) ? this.speed[i]! * this.fps[i]! : 0
      out[at + 3] = this.end[i]! - this.start[i]! + 1
      out[at + 4] = this.start[i]!
      out[at + 5] =
        (flags & LOOP ? ROW_LOOP : 0) | (flags & REVERSE ? ROW_REVERSE : 0) | (flags & NO_INTERPOLATION ? ROW_NO_INTERPOLATION : 0)
      out[at + 6] = this.fadeStart[i]! - epoch
      out[at + 7] = this.fadeDuration[i]!
    }
    const o = i * CROWD_POSE_STRIDE
    out[at + 8] = p[o + 4]!
    out[at + 9] = p[o + 5]!
    out[at + 10] = p[o + 6]!
    out[at + 11] = 0
  }

  /**
   * Moves the epoch on to now, placing the playheads of the looping instances of `0 … count − 1` that move
   * anew, now, where they are, so that their times stay near it. Once in many minutes.
   */
  rebase(count: number): void {
    for (let i = 0; i < count; i++) if (this.flags[i]! & LOOP && this.moves(i)) this.freeze(i)
    this.changeAll(count)
    this.epoch = this.now
  }

  /** Marks instance `i`'s row changed (its placement or visibility, told its owner). */
  touch(i: number): void {
    this.markChanged(i)
  }

  /** Clears the list of instances whose rows changed (`changed[0 … changedCount − 1]`), once they are written. */
  clearChanged(): void {
    for (let k = 0; k < this.changedCount; k++) this.isChanged[this.changed[k]!] = 0
    this.changedCount = 0
  }

  /** Marks every slot `0 … count − 1` changed (the rows are to be written again, as after the epoch moves). */
  changeAll(count: number): void {
    for (let i = 0; i < count; i++) this.markChanged(i)
  }

  /** Whether the play-once animation of instance `i` has reached its last frame by now (time having moved since it was placed). */
  private finishes(i: number): boolean {
    const flags = this.flags[i]!
    if (flags & LOOP || !this.moves(i) || !(this.now > this.anchorTime[i]!)) return false
    const length = this.end[i]! - this.start[i]! + 1
    return this.anchorPosition[i]! + (this.now - this.anchorTime[i]!) * this.speed[i]! * this.fps[i]! >= length - 1
  }

  /** Places instance `i`'s playhead at `position` now. */
  private anchor(i: number, position: number): void {
    this.anchorPosition[i] = position
    this.anchorTime[i] = this.now
  }

  /**
   * Stops instance `i`'s playhead where it is now, as its stored row (before its rate or state changes),
   * reporting what it reached first; a lap gone round moves the reported count with it.
   */
  private freeze(i: number): void {
    if (this.finishes(i)) {
      this.flags[i] = (this.flags[i]! | FINISHED) & ~PLAYING
      this.anchor(i, this.end[i]! - this.start[i]!)
      return
    }
    if (!this.moves(i)) {
      this.anchorTime[i] = this.now
      return
    }
    const length = this.end[i]! - this.start[i]! + 1
    let position = this.anchorPosition[i]! + (this.now - this.anchorTime[i]!) * this.speed[i]! * this.fps[i]!
    if (this.flags[i]! & LOOP && position >= length) {
      const laps = Math.floor(position / length)
      position -= laps * length
      this.reported[i] = this.reported[i]! - laps * length
    }
    this.anchor(i, position)
  }

  /** Instance `i` was told something: its row is to be written, and its events looked at now. */
  private told(i: number): void {
    if (i >= this.used) this.used = i + 1
    this.markChanged(i)
    if (this.handlers) this.schedule.set(i, this.now)
  }

  private markChanged(i: number): void {
    if (this.isChanged[i]) return
    this.isChanged[i] = 1
    this.changed[this.changedCount++] = i
  }

  /**
   * Reports the keyframes instance `i` reached by now, in order (one lap at most, as `KeyframeClock`
   * caps a long hitch); a play-once animation that is finishing reports its last frame, then its end.
   * Then schedules its next keyframe.
   */
  private report(i: number, events: CrowdEvents): void {
    this.schedule.remove(i)
    const flags = this.flags[i]!
    if (flags & EXTERNAL) return
    if (this.reported[i]! < 0 && !(flags & HOLDING)) {
      // The first frame is reached as the animation starts.
      this.reported[i] = 0
      events.onFrame?.(i, this.frameAt(i, 0))
    }
    if (!this.moves(i)) return
    const rate = this.speed[i]! * this.fps[i]!
    const length = this.end[i]! - this.start[i]! + 1
    const position = this.anchorPosition[i]! + (this.now - this.anchorTime[i]!) * rate
    const reached = Math.floor(position)
    const finishing = !(flags & LOOP) && position >= length - 1 && this.now > this.anchorTime[i]!
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
      this.flags[i] = (this.flags[i]! | FINISHED) & ~PLAYING
      this.anchor(i, length - 1)
      this.markChanged(i)
      events.onEnd?.(i)
      return
    }
    this.reported[i] = Math.max(this.reported[i]!, reached)
    // The next keyframe's time; never now again (a rounding may put it a hair early: then at the next step).
    const due = this.anchorTime[i]! + (this.reported[i]! + 1 - this.anchorPosition[i]!) / rate
    this.schedule.set(i, due > this.now ? due : this.now + Math.max(Math.abs(this.now) * 1e-15, 1e-12))
  }

  private frameAt(i: number, count: number): number {
    const flags = this.flags[i]!
    return rangeFrame(this.start[i]!, this.end[i]!, (flags & LOOP) !== 0, (flags & REVERSE) !== 0, count)
  }
}
