import { QUAKE2_FPS } from '../format/spec.js'

/**
 * The tutorials' `animState` (start/end frame, fps, current/next frame, interpolation) made
 * time-correct: it advances by every keyframe the elapsed time covers, however long the frame took,
 * and `interpolation` stays in [0, 1). One plain object, updated in place (no allocation per tick).
 */
export interface AnimationState {
  start: number
  end: number
  /** Keyframes per second. */
  fps: number
  loop: boolean
  /** The keyframe being left. */
  currentFrame: number
  /** The keyframe being approached. */
  nextFrame: number
  /** Blend factor from currentFrame to nextFrame, in [0, 1). */
  interpolation: number
  /** Seconds played since the animation was set (speed applied). */
  elapsed: number
  /** A play-once animation that reached its last frame. */
  finished: boolean
}

export interface AnimationRange {
  start: number
  end: number
  fps?: number
}

export function createAnimationState(range: AnimationRange, loop = true): AnimationState {
  const state: AnimationState = {
    start: 0,
    end: 0,
    fps: QUAKE2_FPS,
    loop,
    currentFrame: 0,
    nextFrame: 0,
    interpolation: 0,
    elapsed: 0,
    finished: false,
  }
  setAnimation(state, range, loop)
  return state
}

/** Restarts `state` on another range, in place. */
export function setAnimation(state: AnimationState, range: AnimationRange, loop = state.loop): void {
  state.start = range.start
  state.end = Math.max(range.start, range.end)
  state.fps = range.fps ?? QUAKE2_FPS
  state.loop = loop
  state.currentFrame = state.start
  state.nextFrame = nextOf(state, state.start)
  state.interpolation = 0
  state.elapsed = 0
  state.finished = false
}

/** Shows one still frame (a scrubber): current = next = frame, no blending. */
export function holdFrame(state: AnimationState, frame: number): void {
  state.currentFrame = frame
  state.nextFrame = frame
  state.interpolation = 0
}

function nextOf(state: AnimationState, frame: number): number {
  if (frame < state.end) return frame + 1
  return state.loop ? state.start : state.end
}

/**
 * Advances by `deltaSeconds × speed`. Returns true on the tick a play-once animation reaches its
 * end (the moment to fire `onAnimationEnd`). Non-finite or negative deltas are ignored.
 */
export function advanceAnimation(state: AnimationState, deltaSeconds: number, speed = 1): boolean {
  if (state.finished || !(deltaSeconds > 0) || !(speed > 0) || !(state.fps > 0)) return false
  if (!Number.isFinite(deltaSeconds) || !Number.isFinite(speed)) return false
  state.elapsed += deltaSeconds * speed
  const position = state.interpolation + deltaSeconds * speed * state.fps
  const steps = Math.floor(position)
  state.interpolation = position - steps
  if (steps === 0) return false

  const length = state.end - state.start + 1
  if (state.loop) {
    state.currentFrame = state.start + ((state.currentFrame - state.start + steps) % length)
    state.nextFrame = nextOf(state, state.currentFrame)
    if (length === 1) state.interpolation = 0
    return false
  }
  const target = state.currentFrame + steps
  if (target >= state.end) {
    state.currentFrame = state.end
    state.nextFrame = state.end
    state.interpolation = 0
    state.finished = true
    return true
  }
  state.currentFrame = target
  state.nextFrame = target + 1
  return false
}
