import type { Texture } from 'three'
import type { MD2ModelData } from '../../core/format/types.js'
import { useAssetHold } from './assetCache.js'
import { clearListings, missingSkin, modelSkinSearch, skinSearches, skinTextures, skinUrls, type ResolvedMD2Skin } from './skinSearch.js'
import { useArchiveUrl } from './useArchiveUrl.js'

/**
 * A skin texture, with Suspense, cached: many models showing one skin share one texture. Never
 * dispose it from a component.
 *
 * - `useMD2Skin(url)`: loads an image URL. `.pcx` and `.tga` are decoded by the core's decoders into
 *   a `DataTexture`; PNG/JPEG go through three's loader; other URLs are sniffed. A failure throws an
 *   `MD2Error` (`LOAD_FAILED`, `BAD_IMAGE`) naming the URL to the nearest error boundary.
 * - `useMD2Skin(model, skin)`: one of the model's own skins, by index into `model.skins` or by name,
 *   looked up next to the model's URL (`model.name`) as `skinCandidates` lists. A skin found
 *   nowhere gives a shared magenta/black checkerboard and one warning naming every URL tried.
 *
 * Held while mounted, as `useMD2`: a URL or name asked for no more is aborted if still loading.
 */
export function useMD2Skin(url: string): Texture
export function useMD2Skin(url: string | undefined): Texture | undefined
export function useMD2Skin(model: MD2ModelData, skin: number | string): Texture
export function useMD2Skin(given: string | MD2ModelData | undefined, skin?: number | string): Texture | undefined {
  const url = useArchiveUrl(typeof given === 'string' ? given : undefined)
  const modelUrl = typeof given === 'object' ? (given.name ?? '') : ''
  const which = skin ?? 0
  const search = typeof given === 'object' ? modelSkinSearch(given, which, modelUrl) : undefined
  useAssetHold(skinTextures, url === undefined ? undefined : { url })
  useAssetHold(skinSearches, search)
  if (url !== undefined) return skinTextures.read({ url })
  if (typeof given !== 'object') return undefined
  return search ? skinSearches.read(search).texture : missingSkin(given, which as number, modelUrl)
}

/** Starts loading a skin URL before any component asks for it. */
useMD2Skin.preload = (url: string): Promise<Texture> => skinTextures.preload({ url })

/**
 * Looks up the skin `skinName` (as written in a model) next to `modelUrl`, once (the result is
 * cached): the same search `useMD2Skin(model, skin)` and `<MD2Model skin>` do. Never rejects: a
 * skin found nowhere resolves to the checkerboard, `url` undefined.
 */
useMD2Skin.resolve = (modelUrl: string, skinName: string): Promise<ResolvedMD2Skin> =>
  skinSearches.preload({ url: modelUrl, name: skinName })

/** The cached texture of a URL if it has loaded, without suspending. */
useMD2Skin.peek = (url: string): Texture | undefined => skinTextures.peek({ url })

/**
 * Forgets a cached skin URL (or every one) and disposes its GPU texture: call only when nothing
 * shows it. Skin name look-ups are forgotten too (they run again on next use); the shared
 * checkerboard is never disposed.
 */
useMD2Skin.clear = (url?: string): void => {
  const key = url === undefined ? undefined : { url }
  for (const cached of key ? [key] : skinTextures.keys()) skinTextures.peek(cached)?.dispose()
  skinTextures.clear(key)
  skinUrls.clear(key)
  skinSearches.clear()
  if (key === undefined) clearListings()
}
