import type { MD2ArchiveFiles, MD2RangeArchive } from '../../core/archive/openArchive.js'
import { hasUrlScheme } from '../../core/images/skinPaths.js'

/** An archive whose files are read as if they were URLs under `base` (`…/pak0.pak/`). */
type MountedArchive = MD2ArchiveFiles | MD2RangeArchive

/** Archives by base URL. Loaded ones are held strongly (the cache that mounted them unmounts them); given ones weakly. */
const mounts = new Map<string, { archive?: MountedArchive; ref?: WeakRef<MountedArchive> }>()
const givenBases = new WeakMap<object, string>()
let nextGiven = 1

/** The base URL of a directory-like name: `http://host/pak0.pak` → `http://host/pak0.pak/`. */
export function archiveBase(url: string): string {
  return `${absoluteUrl(url).replace(/\/+$/, '')}/`
}

/** Reads URLs under `base` from `archive` (instead of fetching them) until the returned call. */
export function mountArchive(base: string, archive: MountedArchive): () => void {
  const entry = { archive }
  mounts.set(base, entry)
  return () => {
    if (mounts.get(base) === entry) mounts.delete(base)
  }
}

/**
 * The base URL of an archive object a caller made (dropped files, `openArchive` bytes):
 * `md2-archive://<n>/`, mounted for as long as the object lives.
 */
export function baseOfGivenArchive(archive: MountedArchive): string {
  let base = givenBases.get(archive)
  if (base === undefined) {
    base = `md2-archive://${nextGiven++}/`
    givenBases.set(archive, base)
    mounts.set(base, { ref: new WeakRef(archive) })
  }
  return base
}

/**
 * The bytes of `url` when it lies under a mounted archive: a promise of the file, or of `undefined`
 * when the archive has no such file (with the archive's base, for messages). `undefined` when no
 * archive is mounted there (the URL is fetched).
 */
export function readFromArchive(url: string): { base: string; bytes: Promise<Uint8Array | undefined> } | undefined {
  if (mounts.size === 0) return undefined
  const absolute = absoluteUrl(url)
  for (const [base, entry] of mounts) {
    if (!absolute.startsWith(base)) continue
    const archive = entry.archive ?? entry.ref?.deref()
    if (!archive) {
      mounts.delete(base)
      continue
    }
    const name = decodeURIComponent(absolute.slice(base.length).replace(/[?#].*$/, ''))
    return { base, bytes: Promise.resolve(archive.read(name)) }
  }
  return undefined
}

function absoluteUrl(url: string): string {
  if (hasUrlScheme(url)) return url
  if (typeof location === 'undefined') return url
  return new URL(url, location.href).href
}
