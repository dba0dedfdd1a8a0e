import type { MD2AnimationCallbacks } from '../../core/animation/MD2AnimationController.js'
import { checkedFps, checkedFrame, checkedPlayOptions, checkedSpeed, selectAnimation } from '../../core/animation/MD2AnimationController.js'
import type { CrowdClock } from '../../core/animation/CrowdClock.js'
import { readCrowdPose } from '../../core/animation/CrowdClock.js'
import { NO_PLAY_OPTIONS, type PlayOptions } from '../../core/animation/KeyframeClock.js'
import type { MD2AnimationReadout } from '../../core/animation/MD2AnimationReadout.js'
import { createPose, poseFrame, type MD2Pose } from '../../core/animation/pose.js'
import type { AnimationSelector } from '../../core/format/animationTable.js'
import type { MD2Animation, MD2ModelData } from '../../core/format/types.js'

/** What an instance controller needs of its crowd. */
export interface CrowdOfInstance {
  readonly model: MD2ModelData
  readonly clock: CrowdClock
}

/**
 * One instance of an `MD2Crowd`, played by animation name, index or range as `MD2AnimationController` plays
 * a model, on the crowd's own clock (typed arrays for the whole crowd, advanced by `crowd.update`): what
 * `<MD2Instance>` drives with its props and hands to its `controllerRef`. The same selection and checks as
 * the controller (a bad value warns once and the default is used); events come through `callbacks`, called
 * by whoever dispatches the crowd's `events` (`<MD2Instances>` does). Reads out as every controller does
 * (`MD2AnimationReadout`).
 */
export class MD2CrowdInstance implements MD2AnimationReadout {
  /** Callbacks, replaceable at any time (a component passes its latest props). */
  callbacks: MD2AnimationCallbacks = {}
  private current: MD2Animation
  private readonly shown: MD2Pose = createPose(0)

  constructor(
    private readonly crowd: CrowdOfInstance,
    /** The instance's slot in the crowd (−1 while it has none: every call is then ignored). */
    public index: number,
    /** The animations it can play (the model's, or the table it was given). */
    public animations: readonly MD2Animation[] = crowd.model.animations,
  ) {
    this.current = selectAnimation(crowd.model, animations, 0)
  }

  /** The animation playing (or last played). */
  get animation(): MD2Animation {
    return this.current
  }

  /** What the instance shows now (a copy, read from the crowd's clock). */
  get pose(): Readonly<MD2Pose> {
    // Without a slot (before mount, after unmount): the last pose read, never another slot's.
    if (this.index < 0) return this.shown
    this.crowd.clock.pose(this.index)
    return readCrowdPose(this.crowd.clock.poses, this.index, this.shown)
  }

  /** The frame shown, fractional: 40.25 is a quarter of the way from frame 40 to 41. */
  get frame(): number {
    return poseFrame(this.pose)
  }

  /** Whether time moves the animation on (false when paused, stopped, finished or holding a frame). */
  get playing(): boolean {
    return this.index >= 0 && this.crowd.clock.isPlaying(this.index) && !this.crowd.clock.isHolding(this.index)
  }

  /** Plays an animation (a name, case-insensitive; an index into `animations`; or a frame range). */
  play(selector: AnimationSelector, options: PlayOptions = NO_PLAY_OPTIONS): void {
    if (this.index < 0) return
    const model = this.crowd.model
    const animation = selectAnimation(model, this.animations, selector)
    this.current = animation
    this.crowd.clock.play(this.index, animation, checkedPlayOptions(model, animation, options))
  }

  /** Changes the rate of the animation playing, without restarting it. */
  setRate(fps: number | undefined, speed: number | undefined): void {
    if (this.index < 0) return
    const model = this.crowd.model
    this.crowd.clock.setRate(this.index, checkedFps(model, fps, this.current.fps), checkedSpeed(model, speed))
  }

  /** Blends between keyframes (true, the default) or snaps from one to the next, as a 10 Hz server shows them. */
  setInterpolate(on: boolean): void {
    if (this.index < 0) return
    this.crowd.clock.setInterpolate(this.index, on)
  }

  /** Stops and shows the animation's first frame. */
  stop(): void {
    if (this.index < 0) return
    this.crowd.clock.stop(this.index)
  }

  pause(): void {
    if (this.index < 0) return
    this.crowd.clock.pause(this.index)
  }

  resume(): void {
    if (this.index < 0) return
    this.crowd.clock.resume(this.index)
  }

  /** Shows one frame still, fractional allowed; `null` goes back to the animation. */
  showFrame(frame: number | null): void {
    if (this.index < 0) return
    if (frame === null) this.crowd.clock.release(this.index)
    else this.crowd.clock.showFrame(this.index, checkedFrame(this.crowd.model, frame))
  }
}
