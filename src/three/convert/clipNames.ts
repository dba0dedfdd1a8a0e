import type { AnimationClip } from 'three'
import { MAX_FRAME_NAME_LENGTH } from '../../core/format/spec.js'

/**
 * A clip's own name, without the armature or object Blender puts before it: `Armature|Run` and
 * `CharacterArmature|Run` are `Run` (the part after the last `|`); a name that is only a prefix stays whole.
 */
export function shortClipName(name: string): string {
  const cut = name.lastIndexOf('|')
  const short = cut < 0 ? name : name.slice(cut + 1).trim()
  return short === '' ? name : short
}

/** A name in the letters, digits and `_` MD2 frame names are made of (`clip` when none is left). */
function frameWord(name: string): string {
  return name.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '') || 'clip'
}

/**
 * The clip a name given by a user stands for: the clip of that name, else the one whose short name
 * (`shortClipName`) it is, else, for a whole number, the clip at that index (a glTF animation may have no name).
 */
export function findClip(clips: readonly AnimationClip[], reference: string): AnimationClip | undefined {
  const exact = clips.find((clip) => clip.name === reference)
  if (exact) return exact
  const short = clips.filter((clip) => shortClipName(typeof clip.name === 'string' ? clip.name : '') === reference)
  if (short.length === 1) return short[0]
  if (/^\d+$/.test(reference)) return clips[Number(reference)]
  return undefined
}

/** The name three's glTF loader gives an animation the file leaves unnamed. */
const LOADER_NAME = /^animation_(\d+)$/

/**
 * The clips as a refusal lists them: each by its name (`"Idle"`), one without a name in the file by its index
 * (`1 (unnamed)`, what `findClip` takes for it), or `none`.
 */
export function listClips(clips: readonly AnimationClip[]): string {
  return (
    clips
      .map((clip, i) => (clip.name && LOADER_NAME.exec(clip.name)?.[1] !== String(i) ? `"${clip.name}"` : `${i} (unnamed)`))
      .join(', ') || 'none'
  )
}

/**
 * Frame names' bases, one per clip: the clip's short name in letters, digits and `_` (ending in `_` after a
 * digit, so that the frame number stays apart), cut so that it and a frame number of `counts[c]` digits (at
 * least 2) fit MD2's 15 bytes. Equal bases, and bases equal once cut, get `_2_`, `_3_`: each animation keeps a
 * prefix of its own.
 */
export function frameBases(names: readonly string[], counts: readonly number[]): string[] {
  const used = new Set<string>()
  return names.map((name, c) => {
    const digits = Math.max(2, String(counts[c]!).length)
    const base = frameWord(shortClipName(name))
    const fit = (text: string, suffix: string) => {
      let cut = text.slice(0, MAX_FRAME_NAME_LENGTH - digits - suffix.length).replace(/_+$/, '') + suffix
      if (/\d$/.test(cut)) cut = cut.slice(0, MAX_FRAME_NAME_LENGTH - digits - 1) + '_'
      return cut
    }
    let candidate = fit(base, '')
    for (let n = 2; used.has(candidate.replace(/_+$/, '').toLowerCase()); n++) candidate = fit(base, `_${n}_`)
    used.add(candidate.replace(/_+$/, '').toLowerCase())
    return candidate
  })
}

/**
 * What a clip's frames are named after, when not its name as given (`frameBases` cut it or told it apart from
 * another's): the sentence saying so, quoting the name as written and the frames it became; else undefined.
 */
export function frameBaseNote(name: string, base: string, count: number): string | undefined {
  const kept = base.replace(/_+$/, '')
  const whole = frameWord(shortClipName(name))
  if (kept === whole) return undefined
  const why = kept.startsWith(whole)
    ? 'another clip has the same name'
    : `MD2's frame names hold ${MAX_FRAME_NAME_LENGTH} bytes with the frame number; the name is cut to fit`
  return `clip "${name}" is named "${kept}" in the model (frames ${kept}${'1'.padStart(Math.max(2, String(count).length), '0')}, …): ${why}`
}

/**
 * Frame names (a morph-target mesh's targets) made to fit MD2's 15 bytes as clip names are: a name that fits is
 * kept; one that does not loses what comes before its last `|`, and then, in letters, digits and `_`, its base
 * (the name less its trailing frame number) is cut, each base staying apart from the others. `cut` lists the
 * names changed, as written and as they became.
 */
export function fitFrameNames(names: readonly string[]): { names: string[]; cut: { from: string; to: string }[] } {
  const encoder = new TextEncoder()
  const fits = (name: string) => name.length > 0 && encoder.encode(name).length <= MAX_FRAME_NAME_LENGTH
  const kept = new Set(names.filter(fits).map((name) => name.replace(/\d+$/, '').toLowerCase()))
  const bases = new Map<string, string>()
  const cut: { from: string; to: string }[] = []
  const given = new Set(names.filter(fits))
  const out = names.map((name) => {
    if (fits(name)) return name
    const short = shortClipName(name)
    if (fits(short) && !given.has(short)) {
      given.add(short)
      cut.push({ from: name, to: short })
      return short
    }
    const [, stem = '', number = ''] = /^(.*?)(\d*)$/.exec(frameWord(short))!
    const digits = number.slice(-Math.min(number.length, 6))
    let base = bases.get(stem)
    if (base === undefined) {
      const room = MAX_FRAME_NAME_LENGTH - Math.max(digits.length, 3)
      const fit = (suffix: string) => {
        const text = (stem.slice(0, room - suffix.length).replace(/_+$/, '') || 'frame') + suffix
        return digits !== '' && /\d$/.test(text) ? `${text.slice(0, room - 1)}_` : text
      }
      base = fit('')
      for (let n = 2; kept.has(base.replace(/_+$/, '').toLowerCase()); n++) base = fit(`_${n}_`)
      kept.add(base.replace(/_+$/, '').toLowerCase())
      bases.set(stem, base)
    }
    const to = base + digits
    cut.push({ from: name, to })
    return to
  })
  return { names: out, cut }
}
