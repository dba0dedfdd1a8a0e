import type { AnimationClip, Object3D } from 'three'
import { MD2Error } from '../../core/MD2Error.js'
import { QUAKE2_PLAYER_ANIMATIONS } from '../../core/format/animationTable.js'
import { QUAKE2_FPS } from '../../core/format/spec.js'
import { bakeMD2, type BakeMD2Options, type BakedMD2, type BakePlanEntry } from './bakeMD2.js'

/** The animations of Quake II's player frame table, in its order (`QUAKE2_PLAYER_ANIMATIONS`). */
export type PlayerAnimationName = (typeof QUAKE2_PLAYER_ANIMATIONS)[number]['name']

/** Each animation's frame names in Quake II's own player models (`male/tris.md2`: `stand01`, `run1`, `pain101` …). */
const FRAME_NAMES: Record<string, [string, number]> = {
  stand: ['stand', 2],
  run: ['run', 1],
  attack: ['attack', 1],
  pain1: ['pain1', 2],
  pain2: ['pain2', 2],
  pain3: ['pain3', 2],
  jump: ['jump', 1],
  flip: ['flip', 2],
  salute: ['salute', 2],
  taunt: ['taunt', 2],
  wave: ['wave', 2],
  point: ['point', 2],
  crouch_stand: ['crstnd', 2],
  crouch_walk: ['crwalk', 1],
  crouch_attack: ['crattak', 1],
  crouch_pain: ['crpain', 1],
  crouch_death: ['crdeath', 1],
  death1: ['death1', 2],
  death2: ['death2', 2],
  death3: ['death3', 2],
}

/** The animations the game loops (held or repeated while the state lasts): their frames wrap round to the start. */
const LOOPING = new Set(['stand', 'run', 'crouch_stand', 'crouch_walk'])

/** For an animation no clip is given for, the nearest ones to take it from, in order. */
const NEAREST: Record<string, readonly string[]> = {
  stand: ['crouch_stand', 'run'],
  run: ['crouch_walk', 'stand'],
  attack: ['crouch_attack', 'stand'],
  pain1: ['pain2', 'pain3', 'crouch_pain', 'stand'],
  pain2: ['pain1', 'pain3', 'crouch_pain', 'stand'],
  pain3: ['pain1', 'pain2', 'crouch_pain', 'stand'],
  jump: ['stand'],
  flip: ['wave', 'taunt', 'salute', 'point', 'stand'],
  salute: ['wave', 'point', 'taunt', 'flip', 'stand'],
  taunt: ['wave', 'salute', 'point', 'flip', 'stand'],
  wave: ['salute', 'point', 'taunt', 'flip', 'stand'],
  point: ['wave', 'salute', 'taunt', 'flip', 'stand'],
  crouch_stand: ['stand'],
  crouch_walk: ['run', 'crouch_stand', 'stand'],
  crouch_attack: ['attack', 'crouch_stand', 'stand'],
  crouch_pain: ['pain1', 'pain2', 'pain3', 'crouch_stand', 'stand'],
  crouch_death: ['death1', 'death2', 'death3', 'stand'],
  death1: ['death2', 'death3', 'crouch_death', 'stand'],
  death2: ['death1', 'death3', 'crouch_death', 'stand'],
  death3: ['death1', 'death2', 'crouch_death', 'stand'],
}

/** Clip names that say which player animation they are (Mixamo's and Blender's usual words). */
const GUESSES: [PlayerAnimationName, RegExp][] = [
  ['crouch_stand', /crouch.*(idle|stand)|(idle|stand).*crouch/i],
  ['crouch_walk', /crouch.*(walk|run|move)|(walk|run).*crouch/i],
  ['crouch_attack', /crouch.*(attack|shoot|fire)/i],
  ['crouch_pain', /crouch.*(pain|hit|hurt)/i],
  ['crouch_death', /crouch.*(death|die|dying)/i],
  ['stand', /idle|stand|breath/i],
  ['run', /run|walk|jog|sprint/i],
  ['attack', /attack|shoot|fire|punch|slash|swing/i],
  ['pain1', /pain|hit|hurt|damage|react/i],
  ['jump', /jump/i],
  ['flip', /flip/i],
  ['salute', /salute/i],
  ['taunt', /taunt|dance|cheer/i],
  ['wave', /wave/i],
  ['point', /point/i],
  ['death1', /death|die|dying|dead/i],
]

/**
 * Which clip plays which player animation, guessed from the clips' names (`idle` → stand, `run`/`walk` → run,
 * `death`/`dying` → death1, …); a clip goes to the first animation its name matches, an animation to the first clip.
 */
export function guessPlayerClips(clipNames: readonly string[]): Partial<Record<PlayerAnimationName, string>> {
  const chosen: Partial<Record<PlayerAnimationName, string>> = {}
  for (const name of clipNames) {
    const match = GUESSES.find(([animation, pattern]) => pattern.test(name) && chosen[animation] === undefined)
    if (match) chosen[match[0]] = name
  }
  return chosen
}

export interface BakePlayerOptions extends Omit<BakeMD2Options, 'fps' | 'clips' | 'plan'> {
  /** Which clip (by name) plays which of Quake II's player animations (default: `guessPlayerClips`). */
  clips?: Partial<Record<PlayerAnimationName, string>>
}

export interface BakedPlayer extends BakedMD2 {
  /** The animations no clip was given for, and the animation each was taken from. */
  filled: { animation: PlayerAnimationName; from: PlayerAnimationName }[]
}

/**
 * Bakes a character as a Quake II player model: the 198 frames of the engine's player table (stand 40, run 6,
 * attack 8, pain 4 × 3, jump 6, the gestures, crouching, deaths 6, 6 and 8), each animation its clip resampled
 * to the table's frame count (looping ones over the clip's whole cycle, the others from its first pose to its
 * last), named as Quake II's own player frames. An animation without a clip is taken from its nearest that has
 * one (pain2 from pain1, crouch_walk from run, …; `filled` says which), and at least one must be given. The
 * game plays every animation at 10 frames a second, so a clip's time stretches to its frame count.
 */
export function bakePlayerMD2(scene: Object3D, clips: readonly AnimationClip[], options: BakePlayerOptions = {}): BakedPlayer {
  const { clips: chosen, ...rest } = options
  const given = chosen ?? guessPlayerClips(clips.map((clip) => clip.name))
  const names = QUAKE2_PLAYER_ANIMATIONS.map((animation) => animation.name)
  for (const [animation, clip] of Object.entries(given)) {
    if (!names.includes(animation as PlayerAnimationName))
      throw new MD2Error('BAD_ARGUMENT', `"${animation}" is not a Quake II player animation (${names.join(', ')})`, { section: 'options' })
    if (!clips.some((c) => c.name === clip))
      throw new MD2Error(
        'BAD_ARGUMENT',
        `no clip is named "${clip}" (the clips: ${clips.map((c) => `"${c.name}"`).join(', ') || 'none'})`,
        {
          section: 'options',
        },
      )
  }
  if (!names.some((name) => given[name] !== undefined))
    throw new MD2Error(
      'BAD_ARGUMENT',
      `no clip for any player animation: name them (stand=…, run=…) or name the clips after them (idle, run, jump, death…); the clips: ${
        clips.map((c) => `"${c.name}"`).join(', ') || 'none'
      }`,
      { section: 'options' },
    )
  const filled: BakedPlayer['filled'] = []
  const source = (animation: PlayerAnimationName): PlayerAnimationName => {
    if (given[animation] !== undefined) return animation
    // Breadth first through the nearest ones, so that pain2 comes from pain1 before stand.
    const queue = [...NEAREST[animation]!]
    const seen = new Set<string>([animation])
    while (queue.length > 0) {
      const next = queue.shift()! as PlayerAnimationName
      if (seen.has(next)) continue
      seen.add(next)
      if (given[next] !== undefined) return next
      queue.push(...NEAREST[next]!)
    }
    return names.find((name) => given[name] !== undefined)!
  }
  const plan: BakePlanEntry[] = QUAKE2_PLAYER_ANIMATIONS.map(({ name, start, end }) => {
    const from = source(name)
    if (from !== name) filled.push({ animation: name, from })
    const clip = clips.find((c) => c.name === given[from])!
    const count = end - start + 1
    const duration = Math.max(0, clip.duration)
    const step = LOOPING.has(name) ? duration / count : count > 1 ? duration / (count - 1) : 0
    const [base, digits] = FRAME_NAMES[name]!
    return {
      animation: name,
      clip: clip.name,
      times: Array.from({ length: count }, (_, k) => k * step),
      frameNames: Array.from({ length: count }, (_, k) => base + String(k + 1).padStart(digits, '0')),
    }
  })
  const baked = bakeMD2(scene, clips, { ...rest, plan, fps: QUAKE2_FPS })
  return { ...baked, filled }
}
