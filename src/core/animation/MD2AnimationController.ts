import { KeyframeClock, type KeyframeEvents, type PlayOptions } from './KeyframeClock.js'
import { findAnimation, type AnimationSelector } from '../format/animationTable.js'
import { QUAKE2_FPS } from '../format/spec.js'
import type { MD2AnimationReadout } from './MD2AnimationReadout.js'
import type { MD2Pose } from './pose.js'
import type { MD2Animation, MD2ModelData } from '../format/types.js'
import { warnOnce } from '../warnOnce.js'

/** Callbacks a controller calls while it advances. */
export interface MD2AnimationCallbacks {
  /** A keyframe was reached (footsteps, muzzle flash): once per keyframe, in order, at any frame rate. */
  onFrame?: (frame: number, animation: MD2Animation) => void
  /** A looping animation went round. */
  onLoop?: (animation: MD2Animation) => void
  /** A play-once animation reached its last frame. */
  onEnd?: (animation: MD2Animation) => void
}

/** What the controller needs of a model. */
export type AnimatedModel = Pick<MD2ModelData, 'name' | 'animations'> & { header: Pick<MD2ModelData['header'], 'numFrames'> }

/**
 * Plays a model's animations by name, index or frame range, and says what to draw (`pose`): the
 * controller a user drives (`useMD2Animation`, `<MD2Model controllerRef>`, or `new` without React).
 * Many instances of one model share the model and each keep one of these. `update(seconds)` once per
 * frame; it allocates nothing. Reads out as every controller does (`MD2AnimationReadout`).
 */
export class MD2AnimationController implements MD2AnimationReadout {
  /** The keyframe clock it drives. */
  readonly clock: KeyframeClock
  /** Callbacks, replaceable at any time (a component passes its latest props). */
  callbacks: MD2AnimationCallbacks = {}
  private current: MD2Animation
  private readonly events: KeyframeEvents

  constructor(
    private readonly model: AnimatedModel,
    /** The animations it can play (the model's, or the table it was given). */
    public animations: readonly MD2Animation[] = model.animations,
  ) {
    this.clock = new KeyframeClock(model.header.numFrames)
    this.current = firstAnimation(model, animations)
    // One object for the life of the controller, so advancing allocates nothing.
    this.events = {
      onFrame: (frame) => this.callbacks.onFrame?.(frame, this.current),
      onLoop: () => this.callbacks.onLoop?.(this.current),
      onEnd: () => this.callbacks.onEnd?.(this.current),
    }
    this.clock.play(this.animation, { fps: this.animation.fps })
  }

  /** What to draw now: read it, never write it. */
  get pose(): Readonly<MD2Pose> {
    return this.clock.pose
  }
  /** The animation playing (or last played). */
  get animation(): MD2Animation {
    return this.current
  }
  /** The frame shown, fractional: 40.25 is a quarter of the way from frame 40 to 41. */
  get frame(): number {
    return this.clock.frame
  }
  /** Progress through the animation, 0 at its first frame, 1 at its last. */
  get progress(): number {
    return this.clock.progress
  }
  /** Whether time moves the animation on (false when paused, stopped, finished or holding a frame). */
  get playing(): boolean {
    return this.clock.playing && !this.clock.holding
  }

  /** Plays an animation (a name, case-insensitive; an index into `animations`; or a frame range). */
  play(selector: AnimationSelector, options: PlayOptions = {}): void {
    const animation = selectAnimation(this.model, this.animations, selector)
    this.current = animation
    this.clock.play(animation, checkedPlayOptions(this.model, animation, options))
    this.checkRate()
  }

  /** Changes the rate of the animation playing, without restarting it. */
  setRate(fps: number | undefined, speed: number | undefined): void {
    this.clock.fps = checkedFps(this.model, fps, this.animation.fps)
    this.clock.speed = checkedSpeed(this.model, speed)
    this.checkRate()
  }

  /** Blends between keyframes (true, the default) or snaps from one to the next, as a 10 Hz server shows them. */
  setInterpolate(on: boolean): void {
    this.clock.interpolate = on
  }

  /** fps and speed each fine, their product past a double: play at the animation's own rate. */
  private checkRate(): void {
    const clock = this.clock
    if (Number.isFinite(clock.fps * clock.speed)) return
    warnOnce(
      `${this.model.name}:rate:${clock.fps}:${clock.speed}`,
      `${this.model.name ?? 'model'}: fps × speed (${clock.fps} × ${clock.speed}) is not a finite rate; using ${this.animation.fps} fps at speed 1`,
    )
    clock.fps = this.animation.fps
    clock.speed = 1
  }

  /** Stops and shows the animation's first frame. */
  stop(): void {
    this.clock.stop()
  }
  pause(): void {
    this.clock.pause()
  }
  resume(): void {
    this.clock.resume()
  }

  /** Shows one frame still, fractional allowed; `null` goes back to the animation. */
  showFrame(frame: number | null): void {
    if (frame === null) {
      this.clock.release()
      return
    }
    this.clock.showFrame(checkedFrame(this.model, frame))
  }

  /** Moves time on by `seconds` (done for you by `useMD2Animation` and `<MD2Model>`). Returns whether the pose changed. */
  update(seconds: number): boolean {
    return this.clock.advance(seconds, this.events)
  }
}

const isPositive = (value: number): boolean => value > 0 && Number.isFinite(value)
const isNotNegative = (value: number): boolean => value >= 0 && Number.isFinite(value)

/** `value` when it passes `valid`, else `fallback` with a one-time warning naming the prop and the value. */
export function checkedNumber(
  model: Pick<AnimatedModel, 'name'>,
  prop: string,
  value: number | undefined,
  fallback: number,
  valid: (value: number) => boolean,
  rule: string,
): number {
  if (value === undefined) return fallback
  if (typeof value === 'number' && valid(value)) return value
  warnOnce(
    `${model.name}:${prop}:${String(value)}`,
    `${model.name ?? 'model'}: ${prop}={${String(value)}} is not ${rule}; using ${fallback}`,
  )
  return fallback
}

/** The first of `animations`, or every frame as one when there are none. */
function firstAnimation(model: AnimatedModel, animations: readonly MD2Animation[]): MD2Animation {
  return animations[0] ?? { name: 'all', start: 0, end: model.header.numFrames - 1, fps: QUAKE2_FPS }
}

/**
 * Finds an animation among `animations` (a name, case-insensitive; an index; or a frame range, fixed to the
 * model's frames), warning once (with the choices) and playing the first when there is none: what every
 * controller of a model (`MD2AnimationController`, a crowd's instance) plays for a selector.
 */
export function selectAnimation(model: AnimatedModel, animations: readonly MD2Animation[], selector: AnimationSelector): MD2Animation {
  const fallback = firstAnimation(model, animations)
  const last = model.header.numFrames - 1
  const label = model.name ?? 'model'
  const list = { animations: animations as MD2Animation[], header: { numFrames: last + 1 } }
  if (typeof selector === 'object' && selector !== null) {
    const { start, end } = selector
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end > last || start > end) {
      const clamp = (frame: number, fallback: number) =>
        Number.isFinite(frame) ? Math.min(Math.max(Math.trunc(frame), 0), last) : fallback
      const a = clamp(start, 0)
      const b = clamp(end, last)
      const fixedStart = Math.min(a, b)
      const fixedEnd = Math.max(a, b)
      const problem = start > end ? 'is reversed (start after end)' : `does not fit frames 0–${last}`
      warnOnce(
        `${model.name}:range:${start}-${end}`,
        `${label}: animation range ${start}–${end} ${problem}; playing ${fixedStart}–${fixedEnd}` +
          (start > end ? ' forwards (pass `reverse` to play backwards)' : ''),
      )
      return findAnimation(list, { ...selector, start: fixedStart, end: fixedEnd })!
    }
  }
  const found = findAnimation(list, selector)
  if (found) return found
  warnOnce(
    `${model.name}:animation:${String(selector)}`,
    `${label} has no animation ${JSON.stringify(selector)}; playing "${fallback.name}". Available: ${animations.map((a) => a.name).join(', ')}`,
  )
  return fallback
}

/** `options` for playing `animation` with each number checked (a bad one warns once and the default is used). */
export function checkedPlayOptions(model: AnimatedModel, animation: MD2Animation, options: PlayOptions): PlayOptions {
  return {
    loop: options.loop,
    reverse: options.reverse,
    fps: checkedFps(model, options.fps, animation.fps),
    speed: checkedSpeed(model, options.speed),
    crossfade: checkedNumber(model, 'crossfade', options.crossfade, 0, isNotNegative, 'seconds, 0 or more'),
  }
}

export const checkedFps = (model: Pick<AnimatedModel, 'name'>, fps: number | undefined, fallback: number): number =>
  checkedNumber(model, 'fps', fps, fallback, isPositive, 'a positive number of keyframes per second')

export const checkedSpeed = (model: Pick<AnimatedModel, 'name'>, speed: number | undefined): number =>
  checkedNumber(model, 'speed', speed, 1, isPositive, 'a positive rate')

/** A still frame to show: one of the model's, fractions allowed; another is clamped to them, with a one-time warning. */
export function checkedFrame(model: AnimatedModel, frame: number): number {
  const last = model.header.numFrames - 1
  if (Number.isFinite(frame) && frame >= 0 && frame <= last) return frame
  const shown = Number.isFinite(frame) ? Math.min(Math.max(frame, 0), last) : 0
  warnOnce(
    `${model.name}:frame:${frame}`,
    `${model.name ?? 'model'}: frame={${frame}} is not one of its frames (0–${last}, fractions allowed); showing frame ${shown}`,
  )
  return shown
}
