import { createContext, useContext, type ReactNode } from 'react'
import type { MD2ArchiveFiles, MD2RangeArchive } from '../core/archive/openArchive.js'
import { MD2Error } from '../core/MD2Error.js'
import { hasUrlScheme } from '../core/images/skinPaths.js'
import { baseOfGivenArchive } from '../three/loaders/archiveMounts.js'
import { MD2ArchiveLoader, type LoadedMD2Archive } from '../three/loaders/MD2ArchiveLoader.js'
import { createAssetCache, createCacheHook } from './assetCache.js'

const loader = new MD2ArchiveLoader()
const unmounts = new WeakMap<LoadedMD2Archive, () => void>()

/** Archives by URL; while one is cached, loaders read URLs under it (`…/pak0.pak/…`) from it. */
const archives = createAssetCache<LoadedMD2Archive>(
  async (url, signal) => {
    const archive = await loader.loadWith(url, { signal })
    unmounts.set(archive, archive.mount())
    return archive
  },
  { evictUnheld: true, onEvict: (archive) => unmounts.get(archive)?.() },
)

/**
 * Opens a `.pak` or `.pk3`/`.zip` at a URL with Suspense, cached by URL and held while mounted, as
 * `useMD2`: its `entries`, `find`, `read` and how it was read (`ranged`, `requests`). Files inside are
 * addressed as URLs under `archive.base`. `.preload`, `.clear`, `.peek`.
 */
export const useMD2Archive = createCacheHook(archives)

const ArchiveBase = createContext<string | undefined>(undefined)

export interface MD2ArchiveProps {
  /** The archive's URL: fetched by HTTP range requests where the server allows, else whole. */
  url?: string
  /** An archive already open (`openArchive(bytes)`, dropped files), instead of a URL. */
  archive?: MD2ArchiveFiles | MD2RangeArchive
  children?: ReactNode
}

/**
 * Makes relative URLs below it (`<MD2Model url>`, skins, tags, `<MD2Player path>`, `useMD2`) resolve
 * inside an archive, in any case: `<MD2Archive url="pak0.pak"><MD2Model url="models/monsters/tank/tris.md2" /></MD2Archive>`.
 * Skins a model names, player weapons and icons follow, because they are looked for next to the model.
 * Suspends while the archive's directory loads; a damaged archive throws its `MD2Error` to the boundary.
 */
export function MD2Archive({ url, archive, children }: MD2ArchiveProps) {
  if (url === undefined && archive === undefined) throw new MD2Error('BAD_ARGUMENT', '<MD2Archive> needs a `url` or an `archive`')
  return archive ? (
    <ArchiveBase.Provider value={baseOfGivenArchive(archive)}>{children}</ArchiveBase.Provider>
  ) : (
    <LoadedArchive url={url!}>{children}</LoadedArchive>
  )
}

function LoadedArchive({ url, children }: { url: string; children?: ReactNode }) {
  const archive = useMD2Archive(url)
  return <ArchiveBase.Provider value={archive.base}>{children}</ArchiveBase.Provider>
}

/**
 * `url` as loaders should fetch it: inside the enclosing `<MD2Archive>` when it is relative (no scheme,
 * no leading `/`), as given otherwise or outside any archive.
 */
export function useArchiveUrl<T extends string | undefined>(url: T): T {
  const base = useContext(ArchiveBase)
  if (base === undefined || typeof url !== 'string' || url === '' || url.startsWith('/') || hasUrlScheme(url)) return url
  return (base + url.replace(/\\/g, '/')) as T
}
