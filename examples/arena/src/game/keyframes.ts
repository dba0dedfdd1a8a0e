/**
 * Quake II's player frames (m_player.h), named as the game names them: what the HUD and the test call
 * the animation shown, and where the feet land in the run.
 */
const PLAYER_ANIMATIONS: readonly (readonly [name: string, first: number, last: number])[] = [
  ['stand', 0, 39],
  ['run', 40, 45],
  ['attack', 46, 53],
  ['pain1', 54, 57],
  ['pain2', 58, 61],
  ['pain3', 62, 65],
  ['jump', 66, 71],
  ['flip', 72, 83],
  ['salute', 84, 94],
  ['taunt', 95, 111],
  ['wave', 112, 122],
  ['point', 123, 134],
  ['crstand', 135, 153],
  ['crwalk', 154, 159],
  ['crattak', 160, 168],
  ['crpain', 169, 172],
  ['crdeath', 173, 177],
  ['death1', 178, 183],
  ['death2', 184, 189],
  ['death3', 190, 197],
]

export function playerAnimationAt(frame: number): string {
  return PLAYER_ANIMATIONS.find(([, first, last]) => frame >= first && frame <= last)?.[0] ?? 'stand'
}

/** The run cycle, and the two keyframes of it where a foot comes down (run2 and run5). */
export const RUN_FIRST = 40
export const RUN_LAST = 45
export const FOOTFALLS: ReadonlySet<number> = new Set([41, 44])

/**
 * Keyframe events for a controller that only exposes the frame it shows (`usePlayerAnimation`'s
 * `state.frame`, which moves on at Quake II's 10 Hz): call `see(frame)` every rendered frame and it
 * calls `onFrame` once for each keyframe reached since the last call, in order. A slow rendered frame
 * can pass more than one tick; inside the looping run cycle the keyframes skipped are known (the
 * cycle only counts up and wraps), so no footstep is lost to a slow frame.
 */
export function createKeyframeWatcher(onFrame: (frame: number) => void): (frame: number) => void {
  let last = -1
  const inRun = (frame: number) => frame >= RUN_FIRST && frame <= RUN_LAST
  return (frame) => {
    if (frame === last) return
    if (inRun(last) && inRun(frame)) {
      for (let f = last; f !== frame;) {
        f = f === RUN_LAST ? RUN_FIRST : f + 1
        onFrame(f)
      }
    } else {
      onFrame(frame)
    }
    last = frame
  }
}
