import type { AnimationClip } from 'three'
import { QUAKE2_PLAYER_ANIMATIONS } from '../core/format/animationTable.js'
import { parseMD2 } from '../core/format/parseMD2.js'
import { QUAKE2_FPS } from '../core/format/spec.js'
import type { GLBContents } from '../core/gltf/glb.js'
import { isMD2Error } from '../core/MD2Error.js'
import { printable } from '../core/printable.js'
import { type PlayerAnimationName } from '../three/convert/bakePlayer.js'
import { checkClips } from '../three/convert/bakeChecks.js'
import { findClip, listClips, shortClipName } from '../three/convert/clipNames.js'
import { ANIMATION_TABLE_HEADER, convertToMD2 } from '../three/convert/convertToMD2.js'
import { loadSimplifier } from '../three/convert/loadSimplifier.js'
import { CliFailure, progress, UsageError, type CliIO, type Parsed, type RunBudget } from './common.js'
import { engineLimitsLine, fitSkin, skinNameIn, withLimitsLine, type GamePath, type SkinFormat } from './fitEngine.js'
import { loadGLTF, readSkin } from './readInputs.js'
import type { OutputFile } from './writeOutputs.js'

/** A glTF input: its path and contents (buffers and images already read). */
export interface GLTFInput {
  path: string
  contents: GLBContents
}

/** The bake options as given on the command line, checked. */
export interface BakeSettings {
  fps: number | undefined
  scale: number | undefined
  format: SkinFormat
  clips: string[] | undefined
  simplify: true | number | undefined
  skinSize: [number, number] | undefined
  /**
   * `--player`: which clip plays which player animation (`--clips stand=Idle,…`; guessed from names without), and
   * the player's name: OUT's folder, resolved (`players/hero/tris.md2` → `hero`), which names its skin and icon.
   */
  player?: { clips: Partial<Record<PlayerAnimationName, string>> | undefined; weapon: string[] | undefined; name: string }
  /** The game folder the skin is named under (`--game-path`, or OUT's folder); bare without one. */
  gamePath?: GamePath | undefined
  /** `--height`, `--origin`: the first frame's height and where its feet go (a player's default: the game's box). */
  placement?: { height?: number; origin?: [number, number, number] }
  /** `--clips NAME=CLIP`: clips baked under another name (an unnamed one by its index: `run=0`), by new name. */
  renames?: Record<string, string>
}

/** `--height` and `--origin`, checked: a height instead of a scale, a point as three numbers. */
function placementOf(parsed: Parsed, scale: number | undefined): NonNullable<BakeSettings['placement']> {
  const height = numberOption('--height', parsed.height, (v) => v > 0 && v <= 1e6, 'a height in units, above 0 up to 1e6')
  if (height !== undefined && scale !== undefined) throw new UsageError('--height and --scale: give one (--height works the scale out)')
  let origin: [number, number, number] | undefined
  if (parsed.origin !== undefined) {
    const parts = parsed.origin.split(',').map((part) => part.trim())
    const values = parts.map(Number)
    if (parts.length !== 3 || parts.some((part) => part === '') || !values.every(Number.isFinite))
      throw new UsageError(`--origin takes X,Y,Z (three numbers, MD2's axes: x forward, y left, z up), got "${parsed.origin}"`)
    origin = values as [number, number, number]
  }
  return { ...(height !== undefined ? { height } : {}), ...(origin ? { origin } : {}) }
}

function numberOption(name: string, text: string | undefined, check: (value: number) => boolean, what: string): number | undefined {
  if (text === undefined) return undefined
  const value = Number(text)
  if (text.trim() === '' || !Number.isFinite(value) || !check(value)) throw new UsageError(`${name} takes ${what}, got "${text}"`)
  return value
}

/**
 * Checks the bake options before anything is read: a wrong one is a usage error naming it. `resolved` is OUT's
 * absolute path (`io.resolve`), whose folder names a player.
 */
export function bakeSettings(parsed: Parsed, skinSize: [number, number] | undefined, output = '', resolved = output): BakeSettings {
  const fps = numberOption('--fps', parsed.fps, (v) => v > 0 && v <= 1000, 'a rate above 0, up to 1000')
  // A scale so small every position rounds to zero is no model: at least 1e-6.
  const scale = numberOption('--scale', parsed.scale, (v) => v >= 1e-6 && v <= 1e6, 'a positive number from 1e-6 to 1e6')
  const format = (parsed.skinFormat ?? 'pcx').toLowerCase()
  if (format !== 'pcx' && format !== 'tga' && format !== 'png')
    throw new UsageError(`--skin-format takes pcx, tga or png, got "${parsed.skinFormat}"`)
  if (parsed.dither && format !== 'pcx')
    throw new UsageError(`--dither is for pcx skins (in Quake II's palette); a ${format} keeps every colour`)
  let simplify: true | number | undefined
  if (parsed.simplify === true) simplify = true
  else if (parsed.simplify !== undefined)
    simplify = numberOption(
      '--simplify',
      parsed.simplify,
      (v) => Number.isInteger(v) && v >= 1 && v <= 4096,
      'a triangle count from 1 to 4096',
    )
  if (parsed.weapon !== undefined && !parsed.player)
    throw new UsageError('--weapon: a weapon is baked with a player (--player), on its frames')
  const placement = placementOf(parsed, scale)
  if (parsed.player)
    return {
      fps: undefined,
      scale,
      format,
      clips: undefined,
      simplify,
      skinSize,
      placement,
      player: playerSettings(parsed, fps, output, resolved),
    }
  let clips: string[] | undefined
  if (parsed.clips !== undefined) {
    clips = parsed.clips
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '')
    if (clips.length === 0) throw new UsageError(`--clips takes clip names separated by commas, got "${parsed.clips}"`)
  }
  // NAME=CLIP: the clip baked as NAME (`run=0` names a glTF's unnamed first animation).
  const renames: Record<string, string> = {}
  clips = clips?.map((entry) => {
    const pair = /^([^=]*?)\s*=\s*(.*)$/.exec(entry)
    if (!pair) return entry
    if (pair[1] === '' || pair[2] === '') throw new UsageError(`--clips takes NAME or NEW=NAME (or NEW=INDEX), got "${entry}"`)
    renames[pair[1]!] = pair[2]!
    return pair[1]!
  })
  return { fps, scale, format, clips, simplify, skinSize, placement, ...(Object.keys(renames).length > 0 ? { renames } : {}) }
}

/**
 * `--player`'s settings: OUT a `tris.md2` (the name the engine loads a player by), no other rate than the game's,
 * and `--clips` as `animation=clip` pairs naming Quake II's player animations.
 */
function playerSettings(parsed: Parsed, fps: number | undefined, output: string, resolved: string): NonNullable<BakeSettings['player']> {
  if (!/(^|[/\\])tris\.md2$/i.test(output))
    throw new UsageError(`--player writes players/NAME/tris.md2 (the file Quake II loads a player from), got "${output}"`)
  const name = playerNameOf(output, resolved)
  if (fps !== undefined && fps !== QUAKE2_FPS)
    throw new UsageError(`--player: the game plays players at ${QUAKE2_FPS} frames a second; --fps ${fps} cannot be kept`)
  const weapon = parsed.weapon
    ?.split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
  if (weapon?.length === 0) throw new UsageError(`--weapon takes mesh names separated by commas, got "${parsed.weapon}"`)
  if (parsed.clips === undefined) return { clips: undefined, weapon, name }
  const names: readonly string[] = QUAKE2_PLAYER_ANIMATIONS.map((animation) => animation.name)
  const clips: Partial<Record<PlayerAnimationName, string>> = {}
  for (const pair of parsed.clips
    .split(',')
    .map((text) => text.trim())
    .filter((text) => text !== '')) {
    const match = /^([a-z_0-9]+)=(.+)$/.exec(pair)
    if (!match || !names.includes(match[1]!))
      throw new UsageError(`--player --clips takes animation=clip pairs, the animations ${names.join(', ')}; got "${pair}"`)
    const animation = match[1] as PlayerAnimationName
    // A second clip for one animation would silently replace the first.
    if (clips[animation] !== undefined)
      throw new UsageError(`--clips gives ${animation} twice ("${animation}=${clips[animation]}", "${pair}"): one clip an animation`)
    clips[animation] = match[2]!.trim()
  }
  if (Object.keys(clips).length === 0) throw new UsageError(`--clips takes animation=clip pairs, got "${parsed.clips}"`)
  return { clips, weapon, name }
}

/**
 * The player's name: the name of OUT's folder, resolved (`players/hero/./tris.md2` and `players/hero/x/../tris.md2`
 * are hero's), as Quake II names a player by its folder. A folder that cannot name one (none: OUT at the root;
 * not ASCII; a quote, semicolon or backslash the game's info strings cannot carry) is refused before any work.
 */
function playerNameOf(output: string, resolved: string): string {
  const folders = resolved.split(/[/\\]/).slice(0, -1)
  const name = folders[folders.length - 1] ?? ''
  if (name === '' || /^[A-Za-z]:$/.test(name))
    throw new UsageError(`--player: "${output}" is in no folder to name the player after; write players/NAME/tris.md2`)
  if (!/^[\x20-\x7e]+$/.test(name) || /["\\;]/.test(name) || name.trim() !== name)
    throw new UsageError(
      `--player: the folder ${JSON.stringify(name)} (of "${output}") cannot name a Quake II player: ASCII letters, digits and ` +
        'punctuation other than " ; \\, no leading or trailing space; write players/NAME/tris.md2',
    )
  return name
}

/**
 * The side files a bake to `output` writes: the skin, and the animation table when the rate is not Quake II's; a
 * player's skin and icon are named after its folder (`players/hero/hero.pcx`, `hero_i.pcx`), its weapon is
 * `weapon.md2` with its skin `weapon.pcx`.
 */
export function bakeSideFiles(
  output: string,
  settings: BakeSettings,
): { skin: string; table: string | undefined; icon?: string; weapon?: { model: string; skin?: string } } {
  if (settings.player) {
    // OUT's folder as given (`.` for a bare tris.md2), the files named after the folder it resolves to.
    const folder = /[/\\]/.test(output) ? output.replace(/[/\\][^/\\]*$/, '') : '.'
    const name = settings.player.name
    // weapon.md2 always (the client refuses a player without one): --weapon's meshes with their skin, or a stand-in.
    const weapon = { model: `${folder}/weapon.md2`, ...(settings.player.weapon ? { skin: `${folder}/weapon.${settings.format}` } : {}) }
    return {
      skin: `${folder}/${name}.${settings.format}`,
      table: undefined,
      icon: `${folder}/${name}_i.pcx`,
      ...(weapon ? { weapon } : {}),
    }
  }
  const base = output.replace(/\.md2$/i, '')
  const table = settings.fps !== undefined && settings.fps !== QUAKE2_FPS ? `${base}.anm` : undefined
  return { skin: `${base}.${settings.format}`, table }
}

/**
 * The animation table an earlier run wrote beside `output` (`OUT.anm`, known by its first line) that this
 * run's `files` do not rewrite: left there, it would give the new model the old one's ranges and rates.
 */
export function staleTable(output: string, files: readonly OutputFile[], io: CliIO): string[] {
  const table = `${output.replace(/\.md2$/i, '')}.anm`
  if (files.some((file) => file.path === table) || !io.exists(table) || io.isDirectory(table)) return []
  try {
    const head = new TextDecoder().decode(io.readFile(table, { maxBytes: ANIMATION_TABLE_HEADER.length }))
    return head === ANIMATION_TABLE_HEADER ? [table] : []
  } catch {
    return []
  }
}

/** A file's name without folder and extension, as an animation name (MD2 frame names are letters, digits, `_`). */
function animationNameOf(path: string): string {
  const base = path.replace(/^.*[/\\]/, '').replace(/\.(glb|gltf)$/i, '')
  return base.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '') || 'anim'
}

/** How a stand-in animation was made from another: played as it is, its first pose held, or that pose falling. */
function standInNote(from: string, how: 'first pose' | 'fall' | undefined): string {
  return how === 'fall' ? `${from}'s first pose falling to the floor` : how === 'first pose' ? `${from}'s first pose` : `taken from ${from}`
}

/** The clips with `--clips NEW=CLIP`'s renamed (copies, each found by name, short name or index). */
function renamed(clips: readonly AnimationClip[], renames: Record<string, string> | undefined): AnimationClip[] {
  if (!renames) return [...clips]
  const out = [...clips]
  for (const [name, reference] of Object.entries(renames)) {
    const clip = findClip(clips, reference)
    if (!clip) throw new CliFailure(`--clips ${name}=${reference}: no clip is named "${reference}" (the clips: ${listClips(clips)})`)
    const copy = clip.clone()
    copy.name = name
    out[clips.indexOf(clip)] = copy
  }
  return out
}

/** Mixamo names every download's one clip alike: `Armature|mixamo.com|Layer0`. */
const GENERIC_CLIP = /mixamo\.com/i

/**
 * One input's clips, for the first input's skeleton: a file's one clip is named after the file when
 * several inputs are given, or when its name is Mixamo's generic one (`walk.glb` → `walk`).
 */
function clipsOf({ path, clips }: { path: string; clips: readonly AnimationClip[] }, several: boolean): AnimationClip[] {
  if (clips.length === 1 && (several || GENERIC_CLIP.test(clips[0]!.name))) {
    const clip = clips[0]!.clone()
    clip.name = animationNameOf(path)
    return [clip]
  }
  return [...clips]
}

/**
 * Skinned or animated glTF → `.md2`: the first input's scene (its visible meshes merged) baked to keyframes
 * with every input's clips, the skin fitted to Quake II and written beside it in `settings.format`.
 */
export async function bakeToMD2(
  inputs: readonly GLTFInput[],
  output: string,
  settings: BakeSettings,
  parsed: Parsed,
  io: CliIO,
  budget?: RunBudget,
): Promise<{ files: OutputFile[]; summary: string; warnings: string[] }> {
  const first = inputs[0]!
  const { fps, scale, format, clips, simplify, skinSize } = settings
  const given = parsed.skin !== undefined ? fitSkin(readSkin(parsed.skin, io), skinSize) : undefined
  // Charged from the JSON before three's loader runs: it copies each buffer view it reads, and the bake merges
  // every drawn instance of a mesh apart (a small file can name one mesh, or one file, thousands of times).
  for (const input of inputs) budget?.charge(viewBytes(input.contents.json), "three's loader copying the buffer views", input.path)
  budget?.charge(mergeBytes(first.contents.json), 'merging the meshes drawn (each instance of a mesh apart)', first.path)
  const gltf = await loadGLTF(first.path, first.contents, (image) => fitSkin(image, skinSize))
  const loaded = [{ path: first.path, clips: gltf.animations }]
  for (const input of inputs.slice(1)) loaded.push({ path: input.path, clips: (await loadGLTF(input.path, input.contents)).animations })
  // Each input's clips checked on their own, so that a refusal names the file the clip came from.
  const named = loaded.map((input) => clipsOf(input, loaded.length > 1))
  named.forEach((inputClips, i) => {
    try {
      const wanted = clips?.map((name) => settings.renames?.[name] ?? name)
      checkClips(
        gltf.scene,
        wanted ? inputClips.filter((clip) => wanted.some((name) => [clip.name, shortClipName(clip.name)].includes(name))) : inputClips,
      )
    } catch (error) {
      throw isMD2Error(error) ? error.withFile(loaded[i]!.path) : error
    }
  })
  const side = bakeSideFiles(output, settings)
  const skinName = skinNameIn(settings.gamePath, side.skin.replace(/^.*[/\\]/, ''))
  if (simplify !== undefined) await loadSimplifier()
  // Each distinct colour is matched by CIEDE2000: under a second for a skin Quake II draws as written, seconds
  // for a large one (--no-engine-limits, 4096 × 4096 noise: about 15), said where stderr is a terminal.
  if (format === 'pcx' && skinSize && skinSize[0] * skinSize[1] > 256 * 256)
    progress(io, `${output}: mapping a ${skinSize[0]} × ${skinSize[1]} skin to Quake II's palette…`)
  const converted = convertToMD2(gltf.scene, renamed(named.flat(), settings.renames), {
    ...(fps !== undefined ? { fps } : {}),
    ...(clips ? { clips } : {}),
    ...(scale !== undefined ? { scale } : {}),
    ...settings.placement,
    ...(parsed.meshes.length > 0 ? { meshes: parsed.meshes } : {}),
    ...(skinSize !== undefined ? { skinWidth: skinSize[0], skinHeight: skinSize[1] } : {}),
    ...(simplify !== undefined ? { simplify } : {}),
    ...(given ? { skin: given } : {}),
    ...(settings.player ? { player: settings.player.clips ?? true } : {}),
    ...(settings.player?.weapon && side.weapon?.skin
      ? { weapon: { meshes: settings.player.weapon, skinName: skinNameIn(settings.gamePath, side.weapon.skin.replace(/^.*[/\\]/, '')) } }
      : {}),
    skinName,
    skinFormat: format,
    dither: parsed.dither,
    name: output.replace(/^.*[/\\]/, ''),
    onWarning: (message: string) => io.stderr(`${first.path}: warning: ${printable(message)}\n`),
  })
  const baked = converted.baked
  const player = 'filled' in baked ? baked : undefined
  // Each stand-in, said once, in one line: the animations of the player table not given a clip, the weapon.
  const standIns = player ? player.filled.map(({ animation, from, how }) => `${animation} (${standInNote(from, how)})`) : []
  const weaponNote = converted.weapon?.standIn ? 'weapon.md2 a stand-in hidden in the body (--weapon bakes meshes of its own)' : ''
  if (standIns.length > 0 || weaponNote)
    io.stderr(
      `${first.path}: warning: ${[standIns.length > 0 ? `no clip for ${standIns.join(', ')}` : '', weaponNote].filter(Boolean).join('; ')}\n`,
    )
  const files: OutputFile[] = [{ path: output, data: converted.data }]
  const image = converted.skin?.image
  let skinNote = 'no skin'
  if (converted.skin) {
    files.push({ path: side.skin, data: converted.skin.data })
    skinNote = `skin ${image!.width}×${image!.height} written to ${side.skin}${format === 'pcx' ? " (Quake II's palette)" : ''}`
  }
  if (converted.icon && side.icon !== undefined) {
    files.push({ path: side.icon, data: converted.icon })
    skinNote += `, icon ${side.icon}`
  }
  if (converted.weapon && side.weapon) {
    files.push({ path: side.weapon.model, data: converted.weapon.data })
    if (converted.weapon.skin && side.weapon.skin) files.push({ path: side.weapon.skin, data: converted.weapon.skin.data })
    const { numVertices, numTris } = converted.weapon.model.header
    const what = converted.weapon.standIn ? 'a stand-in, ' : ''
    skinNote += `, weapon ${side.weapon.model} (${what}${numVertices} vertices, ${numTris} triangles${converted.weapon.skin ? `, its skin ${side.weapon.skin}` : ''})`
  }
  // MD2 keeps no rate (readers assume Quake II's): another one goes in an animation table beside the model.
  let tableNote = ''
  if (side.table !== undefined && converted.table !== undefined) {
    files.push({ path: side.table, data: new TextEncoder().encode(converted.table) })
    tableNote = `, animation table in ${side.table}`
  }
  const data = converted.data
  // Read back with the bake's own table: the file holds what it says.
  const written = parseMD2(data, { name: output, animations: baked.model.animations })
  const { header } = written
  const simplified = baked.simplified
    ? `, simplified from ${baked.simplified.triangles[0]} triangles and ${baked.simplified.vertices[0]} vertices`
    : ''
  const summary =
    `wrote ${output}: ${data.byteLength} bytes, ${header.numFrames} frames, ${header.numVertices} vertices, ${header.numTris} triangles${simplified}, ` +
    `${written.animations.length} animation${written.animations.length === 1 ? '' : 's'} (` +
    (player
      ? `a Quake II player: ${baked.clips
          .filter((clip) => !player.filled.some((fill) => fill.animation === clip.animation))
          .map((clip) => `${clip.animation} ${clip.end - clip.start + 1} from "${printable(clip.clip)}"`)
          .join(', ')}`
      : baked.clips.map((clip) => `${printable(clip.animation)} ${clip.end - clip.start + 1}`).join(', ')) +
    `) at ${fps ?? QUAKE2_FPS} fps${tableNote}, ${skinNote}` +
    (image && settings.gamePath?.dir
      ? `, named ${skinName} in the model` +
        (settings.gamePath.from === 'output' ? ` (the game path from OUT's folder; --game-path sets another)` : '')
      : '')
  const limits = engineLimitsLine(header, image ? { width: image.width, height: image.height, format } : null)
  return { files, summary, warnings: withLimitsLine(written.warnings, limits) }
}

type Entry = Record<string, unknown>
const list = (json: Entry, key: string) => (Array.isArray(json[key]) ? (json[key] as unknown[]) : []).map((item) => (item ?? {}) as Entry)
const count = (value: unknown) => (typeof value === 'number' && value > 0 ? value : 0)

/** The bytes of the buffer views a glTF's accessors read, each once (three's loader copies each one it reads). */
function viewBytes(json: Entry): number {
  const views = list(json, 'bufferViews')
  const read = new Set(list(json, 'accessors').map((accessor) => accessor.bufferView))
  return views.reduce((sum, view, i) => sum + (read.has(i) ? count(view.byteLength) : 0), 0)
}

/**
 * What the bake's merge costs: each node drawing a mesh is merged apart (the node tree, checked by checkGLTF,
 * names each node once), and each merged vertex is held by the merge, the simplifier's copy and the bake's
 * samples: measured near 140 bytes a vertex, charged at 160, and 16 a triangle corner.
 */
function mergeBytes(json: Entry): number {
  const accessors = list(json, 'accessors')
  const meshes = list(json, 'meshes')
  let bytes = 0
  for (const node of list(json, 'nodes')) {
    const mesh = typeof node.mesh === 'number' ? meshes[node.mesh] : undefined
    for (const primitive of mesh ? list(mesh, 'primitives') : []) {
      const attributes = (primitive.attributes ?? {}) as Entry
      const vertices = typeof attributes.POSITION === 'number' ? count(accessors[attributes.POSITION]?.count) : 0
      const corners = typeof primitive.indices === 'number' ? count(accessors[primitive.indices]?.count) : vertices
      bytes += vertices * 160 + corners * 16
    }
  }
  return bytes
}
