import { ENGINE_LIMITS, MAX_SKIN_NAME_LENGTH } from '../core/format/spec.js'
import type { MD2Header } from '../core/format/types.js'
import type { DecodedImage } from '../core/images/decodedImage.js'
import { engineSkinSize, skinSizeProblems } from '../core/images/engineSkin.js'
import { resampleImage } from '../core/images/resampleImage.js'
import { CliFailure, UsageError, type CliIO } from './common.js'

/**
 * Fitting convert's output to an unmodified Quake II: the skin resampled to a size the engine loads, its name
 * as the engine looks it up (a game path), and one line naming every engine limit an output still passes (only
 * with `--no-engine-limits`) with the option that fits it.
 */

export type SkinFormat = 'pcx' | 'tga' | 'png'

/** `--skin-size WxH` as numbers; a usage error when it is not a size. */
export function parseSkinSize(text: string): [number, number] {
  const match = /^(\d+)x(\d+)$/i.exec(text)
  const size = match ? ([Number(match[1]), Number(match[2])] as [number, number]) : undefined
  if (!size || size[0] < 1 || size[1] < 1 || size[0] > 4096 || size[1] > 4096)
    throw new UsageError(`--skin-size takes WxH (1 to 4096), got "${text}"`)
  return size
}

/**
 * Refuses a `--skin-size` Quake II does not load, or draws smaller than written, saying why and what fits,
 * unless `--no-engine-limits`.
 */
export function checkSkinSize(size: [number, number], format: SkinFormat, allowOversize: boolean): void {
  const problems = skinSizeProblems(size[0], size[1], format).filter((problem) => !problem.includes('PNG'))
  if (problems.length === 0 || allowOversize) return
  const [w, h] = engineSkinSize(size[0], size[1])
  const drawnOnly = problems.every((problem) => problem.startsWith('drawn from'))
  throw new CliFailure(
    `--skin-size ${size[0]}x${size[1]}: Quake II ${drawnOnly ? 'does not draw it as written' : 'does not load it'}: ${problems.join('; ')}. ` +
      `--skin-size ${w}x${h} is drawn as written (--no-engine-limits writes it anyway)`,
  )
}

/** The skin size a model without a written skin measures st in: `size` fitted, else 256 × 256. */
export function fitHeaderSkin(size: [number, number] | undefined): [number, number] {
  return size ? engineSkinSize(size[0], size[1]) : [256, 256]
}

/**
 * The image written as the skin: at `requested` (`--skin-size`, already checked) or else at the size Quake II
 * draws as written (each side a power of two up to 256, `engineSkinSize`), averaged down with a proper filter,
 * or up to the next power of two.
 */
export function fitSkin(image: DecodedImage, requested: [number, number] | undefined): DecodedImage {
  const [width, height] = requested ?? engineSkinSize(image.width, image.height)
  return width === image.width && height === image.height ? image : resampleImage(image, width, height)
}

/**
 * Every limit of an unmodified Quake II the written model passes, each with the option that fits it, as
 * one line; undefined when it passes none. `skin` is the skin written, undefined for the header's size, or
 * null when no skin is written: the header's size is then named as the texels st are measured in, not a skin.
 */
export function engineLimitsLine(
  header: MD2Header,
  skin: { width: number; height: number; format: SkinFormat } | undefined | null,
): string | undefined {
  const passed: string[] = []
  if (header.numVertices > ENGINE_LIMITS.vertices) passed.push(`${header.numVertices} vertices > ${ENGINE_LIMITS.vertices} (--simplify)`)
  if (header.numTris > ENGINE_LIMITS.triangles) passed.push(`${header.numTris} triangles > ${ENGINE_LIMITS.triangles} (--simplify)`)
  if (header.numFrames > ENGINE_LIMITS.frames) passed.push(`${header.numFrames} frames > ${ENGINE_LIMITS.frames} (a lower --fps)`)
  const size = skin ?? { width: header.skinWidth, height: header.skinHeight, format: 'pcx' as SkinFormat }
  const problems = skinSizeProblems(size.width, size.height, skin?.format ?? 'tga')
  if (problems.some((problem) => !problem.includes('PNG'))) {
    const [w, h] = engineSkinSize(size.width, size.height)
    passed.push(
      `${skin === null ? 'texture coordinates in' : 'skin'} ${size.width}×${size.height}: ${problems.filter((problem) => !problem.includes('PNG')).join(', ')} (--skin-size ${w}x${h})`,
    )
  }
  if (problems.some((problem) => problem.includes('PNG')))
    passed.push(`${problems.find((problem) => problem.includes('PNG'))} (--skin-format pcx)`)
  return passed.length > 0 ? `passes Quake II's limits: ${passed.join('; ')}` : undefined
}

/** The reader's warnings with the engine's limits said once, on the limits line, rather than one by one. */
export function withLimitsLine(warnings: readonly string[], line: string | undefined): string[] {
  const rest = line === undefined ? [...warnings] : warnings.filter((warning) => !/past Quake II's engine limit/.test(warning))
  return line === undefined ? rest : [...rest, line]
}

/**
 * The folder a skin is named under in the MD2: Quake II looks skins up by path from its game folder
 * (`models/monsters/fox/fox.pcx`), not beside the model. Given with `--game-path DIR`, or else found in
 * OUT's folder: the part of it from its last `models` or `players` folder on (`…/baseq2/models/monsters/fox`
 * gives `models/monsters/fox`). `--game-path ''` names the skin bare, as without one.
 */
export interface GamePath {
  /** The folder, `/`-separated, no leading or trailing slash; `''` for none. */
  dir: string
  /** Where it came from: the option, or OUT's folder. */
  from: 'option' | 'output'
}

/** The skin name stored: `dir/name`, or `name` alone without a game path. */
export function skinNameIn(gamePath: GamePath | undefined, name: string): string {
  return gamePath && gamePath.dir !== '' ? `${gamePath.dir}/${name}` : name
}

/**
 * `--game-path DIR` checked, or the game path OUT's folder gives (undefined when none). A value MD2's skin
 * name cannot hold or Quake II cannot look up (a leading slash, `..`, a backslash, not ASCII, past 63 bytes
 * with `skinFile`) is a usage error naming the option and the value.
 */
export function gamePathOf(given: string | undefined, output: string, skinFile: string, io: CliIO): GamePath | undefined {
  if (given === undefined) {
    const folders = io.resolve(output).split(/[/\\]/).slice(0, -1)
    let at = -1
    folders.forEach((folder, i) => {
      if (/^(models|players)$/i.test(folder)) at = i
    })
    if (at < 0) return undefined
    const dir = folders.slice(at).join('/')
    // A folder MD2 cannot name is left out rather than refused: OUT was not asked to be a game path.
    if (!/^[\x21-\x7e]+$/.test(dir.replace(/ /g, '_')) || `${dir}/${skinFile}`.length > MAX_SKIN_NAME_LENGTH) return undefined
    return { dir, from: 'output' }
  }
  const bad = (why: string): never => {
    throw new UsageError(`--game-path ${JSON.stringify(given)}: ${why}`)
  }
  // Only '' itself names the skin bare: '/' and '///' are the root, '   ' a folder with no name.
  if (given === '') return { dir: '', from: 'option' }
  if (given.startsWith('/') || /^[A-Za-z]:/.test(given)) bad('a folder of the game directory is relative: no leading slash or drive')
  const dir = given.replace(/\/+$/, '')
  if (!/^[\x20-\x7e]*$/.test(dir)) bad('not ASCII; MD2 stores skin names as bytes, one a character')
  if (dir.includes('\\')) bad('use forward slashes (models/monsters/fox)')
  const segments = dir.split('/')
  if (segments.some((segment) => segment.trim() === '' || segment === '.' || segment === '..'))
    bad('each folder a name: no "..", "." or empty folder (nor one of spaces only)')
  if (segments.some((segment) => segment.trim() !== segment)) bad('a folder name neither starts nor ends with a space')
  const name = `${dir}/${skinFile}`
  if (name.length > MAX_SKIN_NAME_LENGTH) bad(`the skin name "${name}" would be ${name.length} bytes, past MD2's ${MAX_SKIN_NAME_LENGTH}`)
  return { dir, from: 'option' }
}

/**
 * Quake II loads an alias model into a hunk of 2 MiB (`Mod_ForName`: `Hunk_Begin(0x200000)`), of which
 * `Mod_LoadAliasModel` takes the file's `ofs_end` bytes, rounded up to 32 by `Hunk_Alloc`; past it,
 * `Hunk_Alloc overflow` quits the game.
 */
export const ALIAS_HUNK_BYTES = 0x200000

/** How an MD2 could be made to fit: the rate its clips were sampled at, and whether the options that refit it apply. */
export interface HunkFit {
  /** `--fps` (10 without); undefined where the frames are not sampled (a player's table, a mesh taken as it is). */
  fps: number | undefined
  /** Whether `--clips` and `--simplify` apply (a baked glTF). */
  baked: boolean
}

/**
 * What keeps an MD2 file out of Quake II's 2 MiB alias hunk, worded with what fits (a lower `--fps`, fewer
 * `--clips`, `--simplify` to about so many triangles); undefined when it fits. Read from the file's own header:
 * its `ofs_end` as the loader requests it, and how much of it the frames take.
 */
export function hunkProblem(md2: Uint8Array, fit: HunkFit): string | undefined {
  if (md2.length < 68) return undefined
  const view = new DataView(md2.buffer, md2.byteOffset, md2.byteLength)
  const int = (field: number) => view.getInt32(field * 4, true)
  const [frameSize, vertices, triangles, frames, ofsST, ofsFrames, ofsEnd] = [int(4), int(6), int(8), int(10), int(12), int(14), int(16)]
  const requested = (ofsEnd + 31) & ~31
  if (requested <= ALIAS_HUNK_BYTES) return undefined
  const rest = ofsEnd - frames * frameSize
  const framesFit = Math.max(0, Math.floor((ALIAS_HUNK_BYTES - rest) / frameSize))
  // The clips: frame names less their numbers (run01, run02, … are one).
  const names = new Set<string>()
  for (let f = 0; f < frames && ofsFrames + f * frameSize + 40 <= md2.length; f++) {
    const raw = md2.subarray(ofsFrames + f * frameSize + 24, ofsFrames + f * frameSize + 40)
    names.add(String.fromCharCode(...raw.subarray(0, raw.indexOf(0) < 0 ? 16 : raw.indexOf(0))).replace(/\d+$/, ''))
  }
  const clips = Math.max(1, names.size)
  const fits: string[] = []
  if (fit.fps !== undefined && framesFit > clips) {
    // A clip of d seconds gives floor(d × fps) + 1 frames, so the clips' seconds are under frames / fps.
    const rate = Math.floor(((fit.fps * (framesFit - clips)) / frames) * 100) / 100
    if (rate > 0) fits.push(`--fps ${rate}`)
  }
  if (fit.baked && fit.fps !== undefined && names.size > 1 && framesFit > 0) fits.push(`fewer --clips (${framesFit} frames fit)`)
  // At this many frames, the vertices that fit: each takes 4 bytes a frame and its share of st, triangles and GL commands.
  const share = (ofsFrames - ofsST + (ofsEnd - ofsFrames - frames * frameSize)) / vertices
  const verticesFit = Math.floor((ALIAS_HUNK_BYTES - ofsST - frames * 40) / (share + 4 * frames))
  // Vertices do not fall quite as fast as triangles under simplification: a twentieth kept in hand.
  const trianglesFit = Math.min(4096, Math.floor((0.95 * triangles * Math.min(verticesFit, vertices)) / vertices))
  if (fit.baked && verticesFit >= 3 && trianglesFit >= 1) fits.push(`--simplify ${trianglesFit}`)
  return (
    `${ofsEnd} bytes, past the ${ALIAS_HUNK_BYTES} (2 MiB) Quake II loads an alias model into ` +
    `(Mod_LoadAliasModel: "Hunk_Alloc overflow", the game quits): ${frames} frames of ${vertices} vertices` +
    (fits.length > 0 ? `; ${fits.join(', or ')} fits it` : '; fewer frames or vertices fit it')
  )
}

/**
 * Each `.md2` about to be written checked against the 2 MiB alias hunk (`hunkProblem`), before anything is
 * written: refused naming the file, its size, the limit and what fits, unless `allowPast` (`--no-engine-limits`),
 * which gets the warnings to say instead (one a file).
 */
export function checkHunk(files: readonly { path: string; data: Uint8Array }[], fit: HunkFit, allowPast: boolean): string[] {
  const warnings: string[] = []
  for (const file of files) {
    if (!/\.md2$/i.test(file.path)) continue
    const problem = hunkProblem(file.data, fit)
    if (problem === undefined) continue
    if (!allowPast)
      throw new CliFailure(`${file.path}: Quake II does not load it: ${problem}; nothing written (--no-engine-limits writes it anyway)`)
    warnings.push(`passes Quake II's limits: ${file.path.replace(/^.*[/\\]/, '')}: ${problem}`)
  }
  return warnings
}
