import { MD2Error, isMD2Error } from '../../core/MD2Error.js'
import { fileSpellings, findInListing } from '../../core/images/skinPaths.js'
import { createAssetCache, loadWhileWanted, useAssetHold, type AssetKey } from './assetCache.js'
import { modelKey, models } from './useMD2.js'

/** Which model file of a folder to look for: the folder's URL, the names in order of preference, and its listing when known. */
export interface FolderFileKey extends AssetKey {
  readonly names: readonly string[]
  readonly files: readonly string[] | undefined
}

/** The URL of the file found for each look-up, or why none was. */
const found = createAssetCache<FolderFileKey, string | MD2Error>(({ url, names, files }, signal) => findModel(url, names, files, signal), {
  evictUnheld: true,
})

/**
 * The URL of the first of `names` that loads as a model from a folder (`<MD2Player>`'s body and
 * weapons), or the `MD2Error` saying why none did, with Suspense; held while mounted. The model it
 * found is in `useMD2`'s cache. `undefined` looks for nothing.
 */
export function useFolderModel(search: FolderFileKey): string | MD2Error
export function useFolderModel(search: FolderFileKey | undefined): string | MD2Error | undefined
export function useFolderModel(search: FolderFileKey | undefined): string | MD2Error | undefined {
  useAssetHold(found, search)
  return search && found.read(search)
}

/**
 * The first of `names` that loads from `folder`, each in its likely spellings (or as listed), one
 * request at a time so a folder served as shipped costs one miss per file at most. A file that is
 * there but damaged is refused with its own error, not skipped.
 */
async function findModel(
  folder: string,
  names: readonly string[],
  listing: readonly string[] | undefined,
  signal: AbortSignal,
): Promise<string | MD2Error> {
  const tried: string[] = []
  for (const name of names) {
    const spellings = listing ? [findInListing(listing, name)].filter((file) => file !== undefined) : fileSpellings(name)
    for (const file of spellings) {
      const url = folder + file
      tried.push(url)
      try {
        await loadWhileWanted(models, modelKey(url), signal)
        return url
      } catch (error) {
        if (signal.aborted) throw error
        if (!isMD2Error(error) || error.code !== 'LOAD_FAILED')
          return isMD2Error(error) ? error : new MD2Error('LOAD_FAILED', String(error), { file: url })
        models.clear(modelKey(url))
      }
    }
  }
  const listed = listing ? ' (the folder listing has none of them)' : ''
  return new MD2Error('LOAD_FAILED', `no ${names.join(' or ')} in ${folder}${listed}; tried ${tried.join(', ') || 'nothing'}`, {
    file: folder,
  })
}

/** The name a listing spells `file` with, or `file` as given. */
export function fileIn(files: readonly string[] | undefined, file: string): string {
  return (files && findInListing(files, file)) ?? file
}

/** A player's folder as a URL ending in `/`; `BAD_ARGUMENT` for no path. */
export function folderUrl(path: string): string {
  if (typeof path !== 'string' || path.trim() === '')
    throw new MD2Error('BAD_ARGUMENT', `<MD2Player> needs a \`path\`, got ${JSON.stringify(path)}`)
  return path.endsWith('/') ? path : `${path}/`
}

/** @internal For tests: forget which files were found. */
export function clearPlayerFiles(): void {
  found.clear()
}
