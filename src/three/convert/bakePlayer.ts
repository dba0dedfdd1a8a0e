import { BufferGeometry, Float32BufferAttribute, type AnimationClip, type Object3D } from 'three'
import { MD2Error } from '../../core/MD2Error.js'
import { QUAKE2_PLAYER_ANIMATIONS } from '../../core/format/animationTable.js'
import { QUAKE2_FPS } from '../../core/format/spec.js'
import type { MD2ModelData } from '../../core/format/types.js'
import { checkPlayerArguments } from './bakeChecks.js'
import { bakeMD2, type BakeMD2Options, type BakedMD2, type BakePlanEntry } from './bakeMD2.js'
import { findClip, listClips, shortClipName } from './clipNames.js'
import { md2FromGeometry } from './md2FromGeometry.js'

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

/**
 * The words a clip's name says a player animation with (Mixamo's, Blender's and asset packs' usual ones), each
 * animation's in tiers, the closer first: a shot or a swing is an attack before a punch, a run a run before a walk.
 */
const WORDS: Partial<Record<PlayerAnimationName, readonly (readonly string[])[]>> = {
  stand: [['idle'], ['stand'], ['breath', 'rest']],
  run: [['run', 'jog', 'sprint'], ['walk']],
  attack: [
    ['shoot', 'shot', 'fire', 'attack', 'slash', 'swing', 'stab', 'strike'],
    ['punch', 'kick'],
  ],
  pain1: [['pain', 'hit', 'hurt', 'damage'], ['react']],
  jump: [['jump']],
  flip: [['flip', 'backflip', 'somersault']],
  salute: [['salute']],
  taunt: [['taunt'], ['dance', 'dancing', 'cheer', 'victory']],
  wave: [['wave', 'waving']],
  point: [['point']],
  death1: [['death', 'die', 'dying', 'dead', 'killed']],
}

/** The crouching animations' standing ones: their words, after a crouching word. */
const UNCROUCHED: Partial<Record<PlayerAnimationName, PlayerAnimationName>> = {
  crouch_stand: 'stand',
  crouch_walk: 'run',
  crouch_attack: 'attack',
  crouch_pain: 'pain1',
  crouch_death: 'death1',
}

/** Words that make a name a crouching one. */
const CROUCH = ['crouch', 'duck', 'crawl', 'squat', 'kneel']

/** A name's words, lower case: split at `_`, spaces, dashes, dots, digits and lower-to-upper case changes. */
function wordsOf(name: string): string[] {
  return shortClipName(name)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((word) => word !== '')
}

/** A word says `key` when it is it or it grown by an ending (`running`, `shooting`, `pointing`, `dies`). */
const says = (word: string, key: string) =>
  word === key || (word.startsWith(key) && /^(s|es|ed|d|ing|ning|ting|ping|er)$/.test(word.slice(key.length)))

/** The tier of `animation`'s words a word says, or -1. */
function tierOf(animation: PlayerAnimationName, word: string): number {
  return (WORDS[animation] ?? []).findIndex((tier) => tier.some((key) => says(word, key)))
}

/**
 * How well a clip's words name `animation` (lower is closer), or undefined when they do not: first how many of
 * its words name something else (`Run_swordAttack` is a run and an attack: a run only where no plain one is),
 * then the tier of the word that names it, then whether the name is that word alone (`Idle` before
 * `Idle_Neutral`), then how many words more.
 */
function closeness(animation: PlayerAnimationName, words: readonly string[]): number[] | undefined {
  const plain = UNCROUCHED[animation] ?? animation
  const crouching = plain !== animation
  const crouched = words.filter((word) => CROUCH.some((key) => says(word, key)))
  if (crouching !== crouched.length > 0) return undefined
  const rest = words.filter((word) => !crouched.includes(word))
  const tiers = rest.map((word) => tierOf(plain, word)).filter((tier) => tier >= 0)
  // A crouch alone is a crouching stand (`Duck`), and a crawl a crouching walk.
  const bare = crouching && (plain === 'stand' ? rest.length === 0 : plain === 'run' && crouched.some((word) => says(word, 'crawl')))
  if (tiers.length === 0 && !bare) return undefined
  const named = rest.filter((word) => tierOf(plain, word) >= 0).length
  const others = rest.filter(
    (word) => tierOf(plain, word) < 0 && Object.keys(WORDS).some((other) => tierOf(other as PlayerAnimationName, word) >= 0),
  ).length
  return [others, tiers.length > 0 ? Math.min(...tiers) : 0, words.length === named + crouched.length ? 0 : 1, words.length - named]
}

/** The first score lower where two differ (equal ones keep the clip that came first). */
function closer(score: readonly number[], than: readonly number[]): boolean {
  const k = score.findIndex((value, i) => value !== than[i])
  return k >= 0 && score[k]! < than[k]!
}

/** The animations a clip's name can say, in the table's order: those with words, standing or crouching. */
const ANIMATIONS_GUESSED = QUAKE2_PLAYER_ANIMATIONS.map((animation) => animation.name).filter(
  (name) => WORDS[name] !== undefined || UNCROUCHED[name] !== undefined,
)

/**
 * Which clip plays which player animation, guessed from the clips' names as a person would pick them: the
 * name that is the animation's word alone first (`Idle` before `Idle_Gun_Pointing`), the closer word next (an
 * attack is a shot or a swing before a punch), a name that says two things (`Run_swordAttack`) only where nothing
 * closer is there. Blender's armature prefix (`CharacterArmature|Idle`) is not read; the clips keep their names.
 */
export function guessPlayerClips(clipNames: readonly string[]): Partial<Record<PlayerAnimationName, string>> {
  const chosen: Partial<Record<PlayerAnimationName, string>> = {}
  const words = clipNames.map((name) => wordsOf(typeof name === 'string' ? name : ''))
  for (const animation of ANIMATIONS_GUESSED) {
    let best: { name: string; score: number[] } | undefined
    clipNames.forEach((name, i) => {
      const score = closeness(animation, words[i]!)
      if (!score) return
      if (!best || closer(score, best.score)) best = { name, score }
    })
    if (best) chosen[animation] = best.name
  }
  return chosen
}

export interface BakePlayerOptions extends Omit<BakeMD2Options, 'fps' | 'clips' | 'plan'> {
  /** Which clip (by name) plays which of Quake II's player animations (default: `guessPlayerClips`). */
  clips?: Partial<Record<PlayerAnimationName, string>>
}

export interface BakedPlayer extends BakedMD2 {
  /**
   * The animations no clip was given for, and the animation each was taken from: played as it is, or `how` made
   * of its first pose (a stand made of a run), or of that pose falling to the floor (a death, when none is given).
   */
  filled: { animation: PlayerAnimationName; from: PlayerAnimationName; how?: 'first pose' | 'fall' }[]
}

/** The stands: held still, so that one made of another animation is that one's first pose, not its motion. */
const STANDS = new Set<string>(['stand', 'crouch_stand'])
const DEATHS = new Set<string>(['death1', 'death2', 'death3', 'crouch_death'])

/**
 * Bakes a character as a Quake II player model: the 198 frames of the engine's player table (stand 40, run 6,
 * attack 8, pain 4 × 3, jump 6, the gestures, crouching, deaths 6, 6 and 8), each animation its clip resampled
 * to the table's frame count (looping ones over the clip's whole cycle, the others from its first pose to its
 * last), named as Quake II's own player frames. An animation without a clip is taken from its nearest that has
 * one (pain2 from pain1, crouch_walk from run, …; `filled` says which), and at least one must be given; a stand
 * so taken is the other's first pose (a character that only runs stands in its run's first pose), and without
 * any death the deaths are the stand's first pose falling over backwards to the floor. A clip is named by its
 * name, its name after Blender's `|`, or its index (a glTF animation may have none). The game plays every
 * animation at 10 frames a second, so a clip's time stretches to its frame count.
 */
export function bakePlayerMD2(scene: Object3D, clips: readonly AnimationClip[], options: BakePlayerOptions = {}): BakedPlayer {
  checkPlayerArguments(scene, clips, options)
  const { clips: chosen, ...rest } = options
  const guessed = chosen ?? guessPlayerClips(clips.map((clip) => clip.name))
  const names = QUAKE2_PLAYER_ANIMATIONS.map((animation) => animation.name)
  const given: Partial<Record<PlayerAnimationName, AnimationClip>> = {}
  for (const [animation, reference] of Object.entries(guessed)) {
    if (!names.includes(animation as PlayerAnimationName))
      throw new MD2Error('BAD_ARGUMENT', `"${animation}" is not a Quake II player animation (${names.join(', ')})`, { section: 'options' })
    const clip = typeof reference === 'string' ? findClip(clips, reference) : undefined
    if (!clip)
      throw new MD2Error('BAD_ARGUMENT', `no clip is named "${reference}" (the clips: ${listClips(clips)})`, { section: 'options' })
    given[animation as PlayerAnimationName] = clip
  }
  if (!names.some((name) => given[name] !== undefined))
    throw new MD2Error(
      'BAD_ARGUMENT',
      `no clip for any player animation: name them (stand=…, run=…, or a clip's index: run=0) or name the clips after them (idle, run, jump, death…); the clips: ${listClips(clips)}`,
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
  const standFrom = source('stand')
  const falls = ![...DEATHS].some((name) => given[name as PlayerAnimationName] !== undefined)
  const clipNames = new Map(clips.map((clip) => [clip, clip.name]))
  const plan: BakePlanEntry[] = QUAKE2_PLAYER_ANIMATIONS.map(({ name, start, end }) => {
    const count = end - start + 1
    const [base, digits] = FRAME_NAMES[name]!
    const frameNames = Array.from({ length: count }, (_, k) => base + String(k + 1).padStart(digits, '0'))
    if (falls && DEATHS.has(name)) {
      // No death: the stand's first pose tipped over, from upright to lying on the floor over the frames.
      filled.push({ animation: name, from: 'stand', how: 'fall' })
      const fall = Array.from({ length: count }, (_, k) => (count > 1 ? k / (count - 1) : 1))
      return { animation: name, clip: clipNames.get(given[standFrom]!)!, times: frameNames.map(() => 0), frameNames, fall }
    }
    const from = source(name)
    const held = from !== name && STANDS.has(name) && !STANDS.has(from)
    if (from !== name) filled.push({ animation: name, from, ...(held ? { how: 'first pose' as const } : {}) })
    const clip = given[from]!
    const duration = Math.max(0, clip.duration)
    const step = held ? 0 : LOOPING.has(name) ? duration / count : count > 1 ? duration / (count - 1) : 0
    return { animation: name, clip: clipNames.get(clip)!, times: Array.from({ length: count }, (_, k) => k * step), frameNames }
  })
  const baked = bakeMD2(scene, clips, { ...rest, plan, fps: QUAKE2_FPS })
  return { ...baked, filled }
}

/** How wide the stand-in weapon's one triangle is, in units: small enough to hide inside the body. */
const STAND_IN_SIZE = 1

/**
 * A weapon the client accepts for a player baked without one (Quake II's `CL_LoadClientinfo` wants
 * `players/NAME/weapon.md2` beside `tris.md2`, else draws `male/grunt`): one triangle, `STAND_IN_SIZE` across,
 * at the middle of the body's bounds in each of its frames (inside the body, so unseen), on the body's frames
 * and skin.
 */
export function standInWeapon(body: MD2ModelData): MD2ModelData {
  const { numVertices, numFrames, skinWidth, skinHeight } = body.header
  const half = STAND_IN_SIZE / 2
  const corners = [
    [half, 0, 0],
    [-half, half, 0],
    [-half, -half, 0],
  ]
  const geometries = Array.from({ length: numFrames }, (_, f) => {
    const low = [255, 255, 255]
    const high = [0, 0, 0]
    for (let v = 0; v < numVertices; v++)
      for (let axis = 0; axis < 3; axis++) {
        const byte = body.frameData[f * body.frameStride + 40 + v * 4 + axis]!
        low[axis] = Math.min(low[axis]!, byte)
        high[axis] = Math.max(high[axis]!, byte)
      }
    // MD2 (x, y, z) = byte × scale + translate; three's (X, Y, Z) is MD2's (y, z, x).
    const middle = [0, 1, 2].map(
      (axis) => ((low[axis]! + high[axis]!) / 2) * body.frameTransforms[f * 6 + axis]! + body.frameTransforms[f * 6 + 3 + axis]!,
    )
    const positions = corners.flatMap(([x, y, z]) => [middle[1]! + y!, middle[2]! + z!, middle[0]! + x!])
    const geometry = new BufferGeometry()
    geometry.setAttribute('position', new Float32BufferAttribute(positions, 3))
    if (f === 0) {
      geometry.setIndex([0, 1, 2])
      geometry.setAttribute('uv', new Float32BufferAttribute([0.5, 0.5, 0.5, 0.5, 0.5, 0.5], 2))
    }
    return geometry
  })
  return md2FromGeometry(geometries, {
    skinWidth,
    skinHeight,
    skins: body.skins,
    frameNames: body.frameNames,
    weld: false,
    name: 'weapon.md2',
  })
}
