import type { MD2Tags } from '../../core/tags/parseMD2Tags.js'
import { MD2TagLoader } from '../../three/loaders/MD2TagLoader.js'
import { createAssetCache, useAssetHold, type AssetKey } from './assetCache.js'
import { checkedTimeout } from './loadTimeout.js'
import { useArchiveUrl } from './useArchiveUrl.js'
import type { UseMD2Options } from './useMD2.js'

const loader = new MD2TagLoader()
/** Tag files by URL, shared by `useMD2Tags`, `<MD2Model tags>` and `<MD2Instances tags>`. */
const tagFiles = createAssetCache<AssetKey, MD2Tags>(({ url }, signal) => loader.loadWith(url, { signal }), { evictUnheld: true })

/** How `useMD2Tags` loads: the `timeout` of `useMD2`'s options. */
type UseMD2TagsOptions = Pick<UseMD2Options, 'timeout'>

/**
 * Loads and parses a UFO:AI tag file (`body.tag`) with Suspense, cached by URL. A failed load or a
 * damaged file throws an `MD2Error` naming the URL to the nearest error boundary. Held while mounted,
 * as `useMD2`; inside an `<MD2Archive>`, a relative URL is the archive's file. `undefined` loads
 * nothing. `.preload`, `.clear`, `.peek`.
 */
export function useMD2Tags(url: string, options?: UseMD2TagsOptions): MD2Tags
export function useMD2Tags(url: string | undefined, options?: UseMD2TagsOptions): MD2Tags | undefined
export function useMD2Tags(url: string | undefined, options?: UseMD2TagsOptions): MD2Tags | undefined {
  const resolved = useArchiveUrl(url)
  const key = resolved === undefined ? undefined : { url: resolved }
  const timeout = checkedTimeout(options?.timeout, 'useMD2Tags timeout')
  useAssetHold(tagFiles, key, timeout)
  return key && tagFiles.read(key, timeout)
}

/** Starts loading a tag file before any component asks for it, and keeps it until `clear`. */
useMD2Tags.preload = (url: string): Promise<MD2Tags> => tagFiles.preload({ url })

/** Forgets a tag file (or all), aborting a load in flight; the next use loads it again. */
useMD2Tags.clear = (url?: string): void => tagFiles.clear(url === undefined ? undefined : { url })

/** The tags if they have loaded, without suspending. */
useMD2Tags.peek = (url: string): MD2Tags | undefined => tagFiles.peek({ url })
