import type { Texture } from 'three'
import { MD2Error, isMD2Error } from '../../core/MD2Error.js'
import { folderOf, skinCandidateRounds, skinCandidates } from '../../core/images/skinPaths.js'
import type { MD2ModelData } from '../../core/format/types.js'
import { warnOnce } from '../../core/warnOnce.js'
import { isAbort } from '../../three/loaders/fetchBytes.js'
import { MD2SkinLoader, getMissingSkinTexture } from '../../three/loaders/MD2SkinLoader.js'
import { createAssetCache, loadWhileWanted, type AssetKey } from './assetCache.js'

/** How one of a model's own skin names was resolved. */
export interface ResolvedMD2Skin {
  /** The skin name as written in the model. */
  name: string
  /** The URL that loaded, or undefined when none did. */
  url: string | undefined
  /** The skin, or the shared checkerboard (`getMissingSkinTexture()`) when nothing was found. */
  texture: Texture
  /** The URLs tried, in order, up to and including the one that loaded. */
  tried: string[]
  /** Why nothing loaded (`LOAD_FAILED` listing every URL tried), when nothing did. */
  error?: MD2Error
}

/** The loader of every skin; `useSkinProp` sets its `maxTextureSize` from the renderer. */
export const skinLoader = new MD2SkinLoader()

/** Textures by URL. Kept until `useMD2Skin.clear` (a GPU texture shared by many models has no single owner). */
export const skinTextures = createAssetCache<AssetKey, Texture>(({ url }, signal) => skinLoader.loadWith(url, { signal }))

/** A skin name looked for next to a model: the model's URL and the name as written. */
export interface SkinSearchKey extends AssetKey {
  readonly name: string
}

/** Skin names looked up next to their models (the whole search; misses are not cached). */
export const skinSearches = createAssetCache<SkinSearchKey, ResolvedMD2Skin>(({ url, name }, signal) => resolveSkin(url, name, signal), {
  evictUnheld: true,
})

/** A skin URL given as a prop: its texture, or the checkerboard and the error (warned once). */
export interface SkinUrlResult {
  texture: Texture
  error?: MD2Error
}

/** Skin URLs given as props, by URL: a failure is a result (the checkerboard), not an error for the boundary. */
export const skinUrls = createAssetCache<AssetKey, SkinUrlResult>(
  ({ url }, signal) =>
    loadWhileWanted(skinTextures, { url }, signal).then(
      (texture) => ({ texture }),
      (cause: unknown) => {
        if (signal.aborted || isAbort(cause)) throw cause
        skinTextures.clear({ url })
        const error = isMD2Error(cause)
          ? cause
          : new MD2Error('LOAD_FAILED', `could not load skin: ${String(cause)}`, { file: url, section: 'skin', cause })
        console.warn(`react-three-md2: ${error.message}; showing a checkerboard`)
        return { texture: getMissingSkinTexture(), error }
      },
    ),
  { evictUnheld: true },
)

/**
 * Folder listings (`<MD2Model files>`, `<MD2Player files>`): the files a model's folder holds, by the
 * folder's URL. A skin search there asks only for listed names, so a name written without its
 * extension (`.bloodspider`) or in another case makes no request that misses.
 */
const listings = new Map<string, ReadonlySet<string>>()

/** Notes the files next to the model at `modelUrl` (a build-time listing), for its skin look-ups. */
export function registerListing(modelUrl: string | undefined, files: readonly string[] | undefined): void {
  if (modelUrl === undefined || files === undefined) return
  const folder = folderOf(modelUrl)
  const known = listings.get(folder)
  if (!known || known.size !== files.length || files.some((file) => !known.has(file))) listings.set(folder, new Set(files))
}

/** Forgets every folder listing. */
export function clearListings(): void {
  listings.clear()
}

/** The candidates a listing allows: files directly in the listed folder, named as listed. */
function listed(modelUrl: string, round: string[]): string[] {
  const folder = folderOf(modelUrl)
  const files = listings.get(folder)
  if (!files) return round
  return round.filter((url) => folderOf(url) === folder && files.has(url.slice(folder.length)))
}

/**
 * Tries the name as written next to the model (where Quake II keeps it: one request for a player's
 * skin), then every other candidate at once; within a round the first in candidate order that loads
 * wins. Misses are not cached: only the resolution (this whole search) is.
 */
async function resolveSkin(modelUrl: string, name: string, signal: AbortSignal): Promise<ResolvedMD2Skin> {
  const candidates = skinCandidates(modelUrl, name)
  const failures: string[] = []
  const attempt = async (url: string): Promise<Texture | undefined> => {
    const cachedBefore = skinTextures.has({ url })
    try {
      return await loadWhileWanted(skinTextures, { url }, signal)
    } catch (error) {
      if (signal.aborted) throw error
      failures.push(`  ${url} (${isMD2Error(error) ? `${error.code}: ${error.reason}` : String(error)})`)
      if (!cachedBefore) skinTextures.clear({ url })
      return undefined
    }
  }
  let tried: string[] = []
  for (const all of skinCandidateRounds(modelUrl, name)) {
    const round = listed(modelUrl, all)
    tried = tried.concat(round)
    const textures = await Promise.all(round.map(attempt))
    const found = textures.findIndex((texture) => texture !== undefined)
    if (found >= 0) return { name, url: round[found], texture: textures[found]!, tried }
  }
  const where = modelUrl === '' ? 'a model with no URL' : modelUrl
  const reason =
    `skin ${JSON.stringify(name)} of ${where} not found; showing a checkerboard. ` +
    (candidates.length === 0
      ? 'The name holds no file name.'
      : tried.length === 0
        ? `The folder's listing has none of ${candidates.slice(0, 4).join(', ')}${candidates.length > 4 ? ', …' : ''}.`
        : `Tried:\n${failures.join('\n')}`)
  console.warn(`react-three-md2: ${reason}`)
  const error = new MD2Error('LOAD_FAILED', reason, { section: 'skin', file: modelUrl || undefined })
  return { name, url: undefined, texture: getMissingSkinTexture(), tried, error }
}

/**
 * The search for skin `skin` of `model` (a name, or an index into `model.skins`) next to `modelUrl`;
 * undefined for an index the model does not have (`missingSkin` says so).
 */
export function modelSkinSearch(model: MD2ModelData, skin: number | string, modelUrl: string): SkinSearchKey | undefined {
  const name = typeof skin === 'string' ? skin : Number.isInteger(skin) ? model.skins[skin] : undefined
  return name === undefined ? undefined : { url: modelUrl, name }
}

/**
 * The checkerboard for skin `index`, which `model` does not have, with one warning; index −1: no skin was
 * given and the model has none to show by itself (it names none, or was given parsed, without its URL).
 */
export function missingSkin(model: MD2ModelData, index: number, modelUrl: string): Texture {
  const count = model.skins.length
  const names = count === 0 ? 'names no skins' : `names ${count} (0–${count - 1})`
  const problem =
    index < 0 ? `has no skin to show${count ? ' (given parsed, without its URL)' : ''} and none was given` : `has no skin ${index}`
  warnOnce(`skin-index:${modelUrl}:${index}`, `${modelUrl || 'model'} ${problem} (it ${names}); showing a checkerboard (skin={null}: none)`)
  return getMissingSkinTexture()
}
