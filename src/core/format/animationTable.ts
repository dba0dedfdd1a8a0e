import { QUAKE2_FPS } from './spec.js'
import { MD2Error } from '../MD2Error.js'
import { warnOnce } from '../warnOnce.js'
import type { MD2Animation, MD2AnimationDef, MD2ModelData } from './types.js'

/**
 * The standard Quake II player frames (0–197), as the game code plays them. Corrects the tutorials:
 * crouch pain is 169–172 (not 196–172), 95–111 is the taunt (not "fallback"), and there is no
 * frame 198 ("boom") in a 198-frame model.
 */
export const QUAKE2_PLAYER_ANIMATIONS: readonly MD2Animation[] = Object.freeze(
  (
    [
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
      ['crouch_stand', 135, 153],
      ['crouch_walk', 154, 159],
      ['crouch_attack', 160, 168],
      ['crouch_pain', 169, 172],
      ['crouch_death', 173, 177],
      ['death1', 178, 183],
      ['death2', 184, 189],
      ['death3', 190, 197],
    ] as const
  ).map(([name, start, end]) => Object.freeze({ name, start, end, fps: QUAKE2_FPS, source: 'quake2' as const })),
)

const PLAYER_FRAME_COUNT = 198

interface ParsedFrameName {
  base: string
  digits: string
}

function splitFrameName(name: string): ParsedFrameName {
  // Tools leave junk after the number ("FRAME 000......"): ignore trailing non-alphanumerics.
  const cleaned = name.replace(/[^A-Za-z0-9]+$/, '')
  const match = /^(.*?)(\d+)$/.exec(cleaned)
  const base = (match ? match[1]! : cleaned).replace(/[\s_\-.]+$/, '')
  return { base: base === '' ? 'frame' : base, digits: match ? match[2]! : '' }
}

/**
 * In 3-digit numbering the leading digit can be part of the name: `pain101..pain104, pain201..` are
 * pain1 and pain2, while `stand001..stand040` and `frame099, frame100` are one run. Split where the
 * leading digits change and the number does not simply count on.
 */
function startsSubRun(prev: ParsedFrameName, next: ParsedFrameName): boolean {
  if (prev.digits.length < 3 || next.digits.length < 3) return false
  if (prev.digits.slice(0, -2) === next.digits.slice(0, -2)) return false
  return Number(next.digits) !== Number(prev.digits) + 1
}

/**
 * Groups frames into animations by name (`model.frameNames`, or frame objects): trailing digits stripped, contiguous runs kept apart,
 * names without digits (`boom`, `flush`) as one-frame animations, `pain1xx/pain2xx` apart.
 * A name that returns later gets a suffix (`stand_2`).
 */
export function groupFrameAnimations(frames: readonly (string | { name: string })[], fps: number = QUAKE2_FPS): MD2Animation[] {
  const parsed = frames.map((frame) => splitFrameName(typeof frame === 'string' ? frame : frame.name))
  const runs: { base: string; start: number; end: number; split: boolean }[] = []
  parsed.forEach((frame, index) => {
    const run = runs[runs.length - 1]
    const prev = parsed[index - 1]
    if (run && prev && run.base === frame.base) {
      if (!startsSubRun(prev, frame)) {
        run.end = index
        return
      }
      run.split = true
      runs.push({ base: frame.base, start: index, end: index, split: true })
      return
    }
    runs.push({ base: frame.base, start: index, end: index, split: false })
  })
  const seen = new Map<string, number>()
  return runs.map((run) => {
    const digits = parsed[run.start]!.digits
    let name = run.split ? run.base + digits.slice(0, -2) : run.base
    const count = (seen.get(name) ?? 0) + 1
    seen.set(name, count)
    if (count > 1) name = `${name}_${count}`
    return { name, start: run.start, end: run.end, fps, source: 'names' as const }
  })
}

/**
 * The animations a parsed model offers: the caller's table if given, else the groups of its frame
 * names (`model.frameNames`, or frame objects), plus the Quake II player table (by its own names) for 198/199-frame player models.
 */
export function resolveAnimations(
  frames: readonly (string | { name: string })[],
  table: readonly MD2AnimationDef[] | undefined,
  warnings: string[],
): MD2Animation[] {
  if (table) {
    const checked = checkAnimationTable(table, frames.length, warnings)
    if (checked.length > 0) return checked
    warnings.push('the animation table has no usable entry; grouping frames by name instead')
  }
  const groups = groupFrameAnimations(frames)
  if (groups.length === 1 && frames.length > 1) {
    warnings.push(`all ${frames.length} frame names share "${groups[0]!.name}": pass an animation table (e.g. from a .anm file)`)
  }
  if (frames.length === PLAYER_FRAME_COUNT || frames.length === PLAYER_FRAME_COUNT + 1) {
    const names = new Set(groups.map((group) => group.name.toLowerCase()))
    for (const animation of QUAKE2_PLAYER_ANIMATIONS) {
      if (!names.has(animation.name)) groups.push({ ...animation })
    }
  }
  return groups
}

function checkAnimationTable(table: readonly MD2AnimationDef[], numFrames: number, warnings: string[]): MD2Animation[] {
  const result: MD2Animation[] = []
  for (const def of table) {
    const fps = def.fps ?? QUAKE2_FPS
    const valid = Number.isInteger(def.start) && Number.isInteger(def.end) && def.start >= 0 && def.start <= def.end && def.end < numFrames
    if (!valid || !(fps >= 0)) {
      warnings.push(`animation "${def.name}" (${def.start}–${def.end}, ${fps} fps) does not fit frames 0–${numFrames - 1}; skipped`)
      continue
    }
    result.push({ name: def.name, start: def.start, end: def.end, fps, source: 'table' })
  }
  return result
}

/**
 * Reads an animation table in UFO: Alien Invasion's `.anm` layout: one `name start end fps` per line,
 * `//` and `#` comments. Frame numbers are 0-based.
 */
export function parseAnimationTable(text: string, file?: string): MD2AnimationDef[] {
  if (file !== undefined && typeof file !== 'string')
    throw new MD2Error('BAD_ARGUMENT', `parseAnimationTable's file takes a name (a string), got ${typeName(file)}`, {
      section: 'animation table',
    })
  if (typeof text !== 'string')
    throw new MD2Error('BAD_ARGUMENT', `parseAnimationTable takes the table's text (a string), got ${typeName(text)}`, {
      section: 'animation table',
      file,
    })
  const defs: MD2AnimationDef[] = []
  text.split(/\r?\n/).forEach((rawLine, lineIndex) => {
    const line = rawLine.replace(/(\/\/|#).*$/, '').trim()
    if (line === '') return
    const [name, start, end, fps, ...rest] = line.split(/\s+/)
    const numbers = [start, end, fps ?? String(QUAKE2_FPS)].map(Number)
    if (name === undefined || start === undefined || end === undefined || rest.length > 0 || numbers.some((n) => !Number.isFinite(n))) {
      throw new MD2Error('BAD_ARGUMENT', `line ${lineIndex + 1} is not "name start end [fps]": ${JSON.stringify(rawLine.trim())}`, {
        section: 'animation table',
        file,
      })
    }
    defs.push({ name, start: numbers[0]!, end: numbers[1]!, fps: numbers[2]! })
  })
  return defs
}

export function typeName(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (value instanceof Uint8Array || value instanceof ArrayBuffer) return 'bytes (decode them to text first)'
  return typeof value === 'object' ? 'an object' : typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`
}

/**
 * An animation table a caller hands the library (`MD2Loader.setAnimationTable`), checked as loose
 * JavaScript may pass it: not an array, or a rate that is not a number above 0 (0 freezes the animation;
 * one frame held, as UFO:AI's death poses, may say 0) is a `BAD_ARGUMENT`; an entry otherwise unusable (no
 * name, frames not whole numbers from 0, start after end) is warned about once and left out, the rest kept.
 */
export function checkAnimationDefs(
  table: unknown,
  where: string,
  leftOut: (key: string, message: string) => void = warnOnce,
): MD2AnimationDef[] {
  if (!Array.isArray(table))
    throw new MD2Error('BAD_ARGUMENT', `${where} takes an array of { name, start, end, fps } entries, got ${typeName(table)}`, {
      section: 'animation table',
    })
  const kept: MD2AnimationDef[] = []
  table.forEach((entry: unknown, index) => {
    const def = (typeof entry === 'object' && entry !== null ? entry : {}) as Partial<Record<keyof MD2AnimationDef, unknown>>
    const { name, start, end, fps } = def
    const frame = (value: unknown) => typeof value === 'number' && Number.isInteger(value) && value >= 0
    const single = start === end
    if (fps !== undefined && !(typeof fps === 'number' && (fps > 0 || (fps === 0 && single)) && Number.isFinite(fps)))
      throw new MD2Error(
        'BAD_ARGUMENT',
        `${where}: entry ${index} ("${String(name)}") has the rate ${typeof fps === 'string' ? `the string "${fps}"` : String(fps)}: a rate is a number of frames a second above 0` +
          (fps === 0 ? ' (0 freezes the animation)' : ''),
        { section: 'animation table' },
      )
    if (typeof name !== 'string' || name === '' || !frame(start) || !frame(end) || (start as number) > (end as number)) {
      const shown = typeof entry === 'object' && entry !== null ? JSON.stringify(entry) : String(entry)
      leftOut(
        `animation-table:${where}:${index}:${shown}`,
        `${where}: entry ${index} ${shown} is not { name, start, end } with whole frame numbers from 0, start up to end; left out, the other entries kept`,
      )
      return
    }
    kept.push({ name, start: start as number, end: end as number, ...(fps !== undefined ? { fps: fps as number } : {}) })
  })
  return kept
}

/** What an `animation` prop may say: a name, an index into `model.animations`, or a frame range. */
export type AnimationSelector = string | number | { start: number; end: number; fps?: number; name?: string }

/**
 * Finds an animation by name (case-insensitive), index, or explicit range (clamped to the model's
 * frames: `header.numFrames`, or `frames.length` when given no header). Returns undefined when
 * there is no such animation.
 */
export function findAnimation(
  model: Pick<MD2ModelData, 'animations'> & ({ header: { numFrames: number } } | { frames: readonly unknown[] }),
  selector: AnimationSelector,
): MD2Animation | undefined {
  if (typeof selector === 'number') return model.animations[selector]
  if (typeof selector === 'string') {
    // A game looks names up every frame: as written, nothing allocated; in another case, lowered.
    const animations = model.animations
    for (const animation of animations) if (animation.name === selector) return animation
    const wanted = selector.toLowerCase()
    return animations.find((animation) => animation.name.toLowerCase() === wanted)
  }
  const last = ('header' in model ? model.header.numFrames : model.frames.length) - 1
  const start = clampFrame(selector.start, last)
  const end = Math.max(start, clampFrame(selector.end, last))
  return { name: selector.name ?? `${start}-${end}`, start, end, fps: selector.fps ?? QUAKE2_FPS, source: 'table' }
}

function clampFrame(frame: number, last: number): number {
  return Number.isFinite(frame) ? Math.min(Math.max(Math.trunc(frame), 0), last) : 0
}
