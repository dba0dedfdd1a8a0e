import type { MD2Tags } from '../core/tags/parseMD2Tags.js'
import { MD2TagLoader } from '../three/loaders/MD2TagLoader.js'
import { createAssetCache, createCacheHook } from './assetCache.js'
import { useArchiveUrl } from './MD2Archive.js'

const loader = new MD2TagLoader()
/** Tag files by URL, shared by `useMD2Tags` and `<MD2Model tags="…">`. */
export const tagFiles = createAssetCache<MD2Tags>((url, signal) => loader.loadWith(url, { signal }), { evictUnheld: true })

/**
 * Loads and parses a UFO:AI tag file (`body.tag`) with Suspense, cached by URL. A failed load or a
 * damaged file throws an `MD2Error` naming the URL to the nearest error boundary. Held while mounted,
 * as `useMD2`; `.preload`, `.clear`, `.peek`.
 */
const cachedTags = createCacheHook(tagFiles)
export const useMD2Tags = Object.assign((url: string): MD2Tags => cachedTags(useArchiveUrl(url)), cachedTags)
