import { MD2ArchiveLoader, type LoadedMD2Archive } from '../../three/loaders/MD2ArchiveLoader.js'
import { createAssetCache, useAsset, type AssetKey } from './assetCache.js'

const loader = new MD2ArchiveLoader()
const unmounts = new WeakMap<LoadedMD2Archive, () => void>()

/** Archives by URL; while one is cached, loaders read URLs under it (`…/pak0.pak/…`) from it. */
const archives = createAssetCache<AssetKey, LoadedMD2Archive>(
  async ({ url }, signal) => {
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
export function useMD2Archive(url: string): LoadedMD2Archive {
  return useAsset(archives, { url })
}

/** Starts opening an archive before any component asks for it, and keeps it until `clear`. */
useMD2Archive.preload = (url: string): Promise<LoadedMD2Archive> => archives.preload({ url })

/** Forgets an archive (or all), aborting a load in flight; the next use opens it again. */
useMD2Archive.clear = (url?: string): void => archives.clear(url === undefined ? undefined : { url })

/** The archive if it has opened, without suspending. */
useMD2Archive.peek = (url: string): LoadedMD2Archive | undefined => archives.peek({ url })
