/**
 * Where to look for a skin named inside an MD2 file. Pure string work: no DOM, no `URL` (the core
 * runs in workers and Node without one).
 *
 * Model files name their skins as game paths (`players/ogro/igdosh.pcx`, `players\faerie\weapon.pcx`)
 * or, in UFO: Alien Invasion, as a dot and a base name with the extension left open (`.bloodspider`,
 * meaning "bloodspider.* next to the model"). Web servers are usually case-sensitive while the
 * files come from case-insensitive systems (`tris.MD2`, `Ratamahatta.pcx`, `ctf_b.PCX`).
 */

/** Extensions tried, in this order, for a skin name written without one. */
export const SKIN_EXTENSIONS = ['.png', '.jpg', '.tga', '.pcx'] as const

/**
 * The URLs to try, in order, for the skin `skinName` of the model at `modelUrl` (a URL or path; its
 * query and fragment are ignored; `''` means "relative to the page"):
 *
 * 1. the file name alone, next to the model (where a Quake II player folder keeps it), then
 * 2. the path as written (backslashes turned into slashes) relative to the model's folder;
 *
 * for each, the extension as written or, when the name has none, `.png`, `.jpg`, `.tga`, `.pcx` in
 * that order; and for each of those the spellings: as written, all lower-case, upper-case extension,
 * lower-case name with upper-case extension, all upper-case. Duplicates are dropped. Returns `[]` for
 * a name with no file name in it (empty, only slashes or dots) and for none (`model.skins[0]` of a model
 * that names no skin), so `skinCandidates(url, model.skins[0])` is safe on any model.
 */
export function skinCandidates(modelUrl: string, skinName: string | undefined): string[] {
  if (!skinName) return []
  return skinCandidateRounds(modelUrl, skinName).flat()
}

/**
 * `skinCandidates` in two rounds, to be tried round by round, each round's URLs at once: first the
 * name as written next to the model (one URL, or one per open extension), where a player folder
 * keeps its skins; then every other location and spelling.
 */
export function skinCandidateRounds(modelUrl: string, skinName: string): [string[], string[]] {
  const folder = folderOf(modelUrl)
  // Names are NUL-padded in the file and sometimes blank-padded by tools; '/' and '\' both occur.
  const written = skinName.replace(/\0.*$/s, '').trim().replace(/\\/g, '/').replace(/^\/+/, '')
  const slash = written.lastIndexOf('/')
  const dir = written.slice(0, slash + 1)
  let file = written.slice(slash + 1)
  // UFO:AI writes ".name": the file `name.<some image extension>` in the model's folder.
  const ufoStyle = dir === '' && /^\.[^.]+$/.test(file)
  if (ufoStyle) file = file.slice(1)
  if (file === '' || /^\.+$/.test(file)) return [[], []]

  const dot = file.lastIndexOf('.')
  const hasExtension = dot > 0 && dot < file.length - 1
  const base = hasExtension ? file.slice(0, dot) : file
  const extensions = hasExtension ? [file.slice(dot)] : SKIN_EXTENSIONS

  const locations = dir === '' ? [folder] : [folder, folder + dir]
  const first: string[] = []
  const rest: string[] = []
  const seen = new Set<string>()
  for (const location of locations) {
    for (const extension of extensions) {
      spellings(base, extension).forEach((name, spelling) => {
        const url = location + name
        if (seen.has(url)) return
        seen.add(url)
        ;(location === folder && spelling === 0 ? first : rest).push(url)
      })
    }
  }
  return [first, rest]
}

/** Whether `url` starts with a scheme (`http:`, `file:`, `blob:`, `md2-archive:`): absolute, not a path. */
export function hasUrlScheme(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(url)
}

/**
 * A skin URL given by a caller, as it is fetched: a bare file name (`khorne.pcx`) sits next to the
 * model; a path with a folder, a root-relative path or a URL with a scheme is used as given.
 */
export function skinUrlNextTo(modelUrl: string | undefined, skin: string): string {
  if (modelUrl === undefined || skin.includes('/') || hasUrlScheme(skin)) return skin
  return folderOf(modelUrl) + skin
}

/**
 * The spellings a file written `file` may have on a case-sensitive server, most likely first: as
 * written, all lower-case, upper-case extension, lower-case name with upper-case extension, all
 * upper-case (`tris.md2`, `tris.MD2`, `TRIS.MD2`). Duplicates dropped.
 */
export function fileSpellings(file: string): string[] {
  const dot = file.lastIndexOf('.')
  const base = dot > 0 ? file.slice(0, dot) : file
  const extension = dot > 0 ? file.slice(dot) : ''
  return [...new Set(spellings(base, extension))]
}

/** The entry of a folder listing that is `file` compared case-insensitively, as Quake II's file system does, or undefined. */
export function findInListing(listing: readonly string[], file: string): string | undefined {
  const wanted = file.toLowerCase()
  return listing.find((entry) => entry.toLowerCase() === wanted)
}

/** The folder part of a model URL, ending in '/', or '' when it has none. */
export function folderOf(modelUrl: string): string {
  const path = modelUrl.replace(/[?#].*$/s, '').replace(/\\/g, '/')
  return path.slice(0, path.lastIndexOf('/') + 1)
}

function spellings(base: string, extension: string): string[] {
  return [
    base + extension,
    (base + extension).toLowerCase(),
    base + extension.toUpperCase(),
    base.toLowerCase() + extension.toUpperCase(),
    (base + extension).toUpperCase(),
  ]
}
