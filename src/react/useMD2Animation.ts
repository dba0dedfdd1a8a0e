import { useFrame } from '@react-three/fiber'
import { useImperativeHandle, useLayoutEffect, useMemo, useRef, type Ref } from 'react'
import type { PlayOptions } from '../core/animation/KeyframeClock.js'
import { resolveAnimations, type AnimationSelector } from '../core/format/animationTable.js'
import { MD2AnimationController, type MD2AnimationCallbacks } from '../core/animation/MD2AnimationController.js'
import type { MD2Animation, MD2AnimationDef, MD2ModelData } from '../core/format/types.js'
import { warnOnce } from '../core/warnOnce.js'

// Bundlers replace `process.env.NODE_ENV` with a string: production builds leave the check, and its code, out.
declare const process: { env: { NODE_ENV?: string } }

/** useFrame priority of animation controllers: before the default (0), where models write their vertices. */
export const ANIMATION_FRAME_PRIORITY = -1

export interface UseMD2AnimationOptions extends MD2AnimationCallbacks {
  /** Animation to play: a name (case-insensitive), an index into the animations, or a frame range. Default: the first. */
  animation?: AnimationSelector
  /** Replaces the model's animations (e.g. `parseAnimationTable` of a UFO:AI `.anm`). */
  animationTable?: readonly MD2AnimationDef[]
  /** Keyframes per second; default the animation's own (10 for Quake II). */
  fps?: number
  /** Playback rate multiplier. Default 1. */
  speed?: number
  /** Default true; false stops on the last frame and calls `onEnd`. */
  loop?: boolean
  /** Play backwards. */
  reverse?: boolean
  /** Default true; false holds the pose where it is. */
  playing?: boolean
  /** Blend between keyframes (default true); false snaps like a 10 Hz server. */
  interpolate?: boolean
  /** Show this frame still (fractional: 40.5 is halfway from 40 to 41). Overrides `animation` while set. */
  frame?: number
  /** Seconds over which a change of `animation` fades from the pose shown into the new one. Default 0 (a cut). */
  crossfade?: number
}

/**
 * Headless animation control for one model instance, the way drei's `useAnimations` is for glTF:
 * returns a stable `MD2AnimationController` (`play`, `stop`, `pause`, `resume`, `showFrame`, and
 * readable `animation`, `frame`, `progress`, `playing`, `pose`). Props set the animation
 * declaratively; `play` takes over from code until the `animation` option changes again. Advances
 * in `useFrame` before models draw. Give the controller to `<MD2Model controller={…}>` to show it.
 */
export function useMD2Animation(model: MD2ModelData, options: UseMD2AnimationOptions = {}): MD2AnimationController {
  const animations = useAnimationList(model, options.animationTable)
  const controller = useMemo(() => new MD2AnimationController(model, animations), [model, animations])
  controller.callbacks = options
  useMD2AnimationOptions(controller, options)
  useFrame((_, delta) => {
    controller.update(delta)
  }, ANIMATION_FRAME_PRIORITY)
  return controller
}

/** What the animation props drive: a model's `MD2AnimationController`, or a crowd instance's `MD2CrowdInstance`. */
export interface AnimationControl {
  play(selector: AnimationSelector, options?: PlayOptions): void
  setRate(fps: number | undefined, speed: number | undefined): void
  setInterpolate(on: boolean): void
  pause(): void
  resume(): void
  showFrame(frame: number | null): void
}

/** Applies the declarative options to a controller, each when it changes. */
export function useMD2AnimationOptions(controller: AnimationControl, options: UseMD2AnimationOptions): void {
  const { animation, fps, speed, loop = true, reverse = false, playing = true, interpolate = true, frame, crossfade = 0 } = options
  // What was last played, and on which controller (a new one starts without a crossfade).
  const played = useRef<[AnimationControl, string]>(undefined)
  // A new animation restarts; the latest rates, crossfade and `playing` go with it (changes of those
  // alone are applied below without restarting).
  const latest = useRef({ animation, fps, speed, crossfade, playing })
  latest.current = { animation, fps, speed, crossfade, playing }
  const key = selectorKey(animation)
  useLayoutEffect(() => {
    const now = latest.current
    const asked = `${key} ${loop} ${reverse}`
    const was = played.current
    // StrictMode's effect replay (or an <Activity> shown again) asks for what is playing: it plays on, and
    // reports no frame twice (the replay may come after a frame already reported the first).
    if (was?.[0] === controller && was[1] === asked) return
    played.current = [controller, asked]
    // A new controller starts without a crossfade.
    controller.play(now.animation ?? 0, {
      loop,
      reverse,
      fps: now.fps,
      speed: now.speed,
      crossfade: was?.[0] === controller ? now.crossfade : 0,
    })
    if (!now.playing) controller.pause()
  }, [controller, key, loop, reverse])
  useLayoutEffect(() => controller.setRate(fps, speed), [controller, fps, speed])
  useLayoutEffect(() => (playing ? controller.resume() : controller.pause()), [controller, playing])
  useLayoutEffect(() => controller.setInterpolate(interpolate), [controller, interpolate])
  useLayoutEffect(() => controller.showFrame(frame ?? null), [controller, frame])
}

function selectorKey(selector: AnimationSelector | undefined): string {
  return typeof selector === 'object' && selector !== null
    ? `${selector.name ?? ''}:${selector.start}-${selector.end}-${selector.fps ?? ''}`
    : String(selector)
}

/** The model's animations, or those of a caller's table (checked against the model, with warnings). */
export function useAnimationList(model: MD2ModelData, table: readonly MD2AnimationDef[] | undefined): readonly MD2Animation[] {
  return useMemo(() => {
    if (!table) return model.animations
    const warnings: string[] = []
    const list = resolveAnimations(model.frameNames, table, warnings)
    for (const warning of warnings) warnOnce(`${model.name}:${warning}`, `${model.name ?? 'model'}: ${warning}`)
    return list
  }, [model, table])
}

/**
 * @internal The controller a component owns and drives by its animation props (`<MD2Model>`,
 * `<MD2Instance>`), with its callbacks, handed to `controllerRef`. It is advanced by its owner.
 */
export function useOwnController(
  model: MD2ModelData,
  options: UseMD2AnimationOptions,
  controllerRef?: Ref<MD2AnimationController>,
): MD2AnimationController {
  const animations = useAnimationList(model, options.animationTable)
  const controller = useMemo(() => new MD2AnimationController(model, animations), [model, animations])
  controller.callbacks.onFrame = options.onFrame
  controller.callbacks.onLoop = options.onLoop
  controller.callbacks.onEnd = options.onEnd
  useMD2AnimationOptions(controller, options)
  useImperativeHandle(controllerRef, () => controller, [controller])
  return controller
}

/** The props of `<MD2Model>` and `<MD2Instance>` that go to the controller they own (`onAnimationEnd` is its `onEnd`). */
export type AnimationProps = UseMD2AnimationOptions & { onAnimationEnd?: UseMD2AnimationOptions['onEnd'] }

const ANIMATION_PROPS: ReadonlySet<string> = new Set([
  'animation',
  'animationTable',
  'fps',
  'speed',
  'loop',
  'reverse',
  'playing',
  'interpolate',
  'frame',
  'crossfade',
  'onFrame',
  'onLoop',
  'onEnd',
  'onAnimationEnd',
] satisfies (keyof AnimationProps)[])

/** @internal A component's props split into its own controller's options and the rest. */
export function splitAnimationProps<P extends AnimationProps>(props: P): [UseMD2AnimationOptions, Omit<P, keyof AnimationProps>] {
  const options: Record<string, unknown> = {}
  const rest: Record<string, unknown> = {}
  for (const key of Object.keys(props)) (ANIMATION_PROPS.has(key) ? options : rest)[key] = props[key as keyof P]
  const { onAnimationEnd, ...animation } = options as AnimationProps
  animation.onEnd ??= onAnimationEnd
  // A mistake of code, as the props' checks: development builds say so.
  if (process.env.NODE_ENV !== 'production' && rest.controller !== undefined) warnControllerEvents(options)
  return [animation, rest as Omit<P, keyof AnimationProps>]
}

/** Events given beside a `controller` never come: the controller plays, and reports to its own callbacks. */
function warnControllerEvents(options: Record<string, unknown>): void {
  const names = EVENT_PROPS.filter((name) => options[name] !== undefined).join(', ')
  if (!names) return
  warnOnce(
    `controller-events:${names}`,
    `${names} beside a \`controller\` never fire: the controller reports its events to its own callbacks ` +
      '(useMD2Animation(model, { onLoop, onEnd }), usePlayerAnimation({ onLoop, onEnd }))',
  )
}

const EVENT_PROPS = ['onFrame', 'onLoop', 'onEnd', 'onAnimationEnd'] as const
