import { useDeferredValue, useEffect, useLayoutEffect, useRef } from 'react'
import type { Texture } from 'three'
import { MD2Error, isMD2Error } from '../core/MD2Error.js'
import { folderOf, hasUrlScheme, skinCandidateRounds, skinCandidates, skinUrlNextTo } from '../core/images/skinPaths.js'
import type { MD2ModelData } from '../core/format/types.js'
import { md2SourceUrl } from '../three/loaders/MD2Loader.js'
import { MD2SkinLoader, getMissingSkinTexture } from '../three/loaders/MD2SkinLoader.js'
import { createAssetCache, loadWhileWanted, useAssetHold } from './assetCache.js'
import { useArchiveUrl } from './MD2Archive.js'
import { useMaxTextureSize } from './useMaxTextureSize.js'
import { isAbort } from '../three/loaders/fetchBytes.js'

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

const loader = new MD2SkinLoader()
/** Textures by URL. Kept until `useMD2Skin.clear` (a GPU texture shared by many models has no single owner). */
const skins = createAssetCache<Texture>((url, signal) => loader.loadWith(url, { signal }))

const SEPARATOR = '\u0000'
const resolutions = createAssetCache<ResolvedMD2Skin>(
  (key, signal) => {
    const at = key.indexOf(SEPARATOR)
    return resolveSkin(key.slice(0, at), key.slice(at + 1), signal)
  },
  { evictUnheld: true },
)

/**
 * Folder listings (`<MD2Model files>`, `<MD2Player files>`): the files a model's folder holds, by the
 * folder's URL. A skin search there asks only for listed names, so a name written without its
 * extension (`.bloodspider`) or in another case makes no request that misses.
 */
const listings = new Map<string, ReadonlySet<string>>()

/** @internal Notes the files next to the model at `modelUrl` (a build-time listing), for its skin look-ups. */
export function registerListing(modelUrl: string | undefined, files: readonly string[] | undefined): void {
  if (modelUrl === undefined || files === undefined) return
  const folder = folderOf(modelUrl)
  const known = listings.get(folder)
  if (!known || known.size !== files.length || files.some((file) => !known.has(file))) listings.set(folder, new Set(files))
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
    const cachedBefore = skins.has(url)
    try {
      return await loadWhileWanted(skins, url, signal)
    } catch (error) {
      if (signal.aborted) throw error
      failures.push(`  ${url} (${isMD2Error(error) ? `${error.code}: ${error.reason}` : String(error)})`)
      if (!cachedBefore) skins.clear(url)
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

/** A skin URL given as a prop: its texture, or the checkerboard and the error (warned once). */
interface SkinUrlResult {
  texture: Texture
  error?: MD2Error
}
const urlSkins = createAssetCache<SkinUrlResult>(
  (url, signal) =>
    loadWhileWanted(skins, url, signal).then(
      (texture) => ({ texture }),
      (cause: unknown) => {
        if (signal.aborted || isAbort(cause)) throw cause
        skins.clear(url)
        const error = isMD2Error(cause)
          ? cause
          : new MD2Error('LOAD_FAILED', `could not load skin: ${String(cause)}`, { file: url, section: 'skin', cause })
        console.warn(`react-three-md2: ${error.message}; showing a checkerboard`)
        return { texture: getMissingSkinTexture(), error }
      },
    ),
  { evictUnheld: true },
)

const warnedIndex = new Set<string>()

/** @internal The skin of `model` named `skin` (a name, or an index into `model.skins`), relative to `modelUrl`. */
export function readModelSkin(model: MD2ModelData, skin: number | string, modelUrl = model.name ?? ''): Texture {
  if (typeof skin === 'number') {
    const name = Number.isInteger(skin) ? model.skins[skin] : undefined
    if (name === undefined) {
      const key = `${modelUrl}${SEPARATOR}${skin}`
      if (!warnedIndex.has(key)) {
        warnedIndex.add(key)
        const names = model.skins.length === 0 ? 'names no skins' : `names ${model.skins.length} (0–${model.skins.length - 1})`
        console.warn(`react-three-md2: ${modelUrl || 'model'} has no skin ${skin} (it ${names}); showing a checkerboard`)
      }
      return getMissingSkinTexture()
    }
    skin = name
  }
  return resolutions.read(`${modelUrl}${SEPARATOR}${skin}`).texture
}

/** What `<MD2Model skin>` accepts. */
export type MD2SkinProp = string | number | Texture | null | undefined

/**
 * @internal The texture for `<MD2Model skin>`: a `Texture` as given; `null` none; a number, an index
 * into `model.skins`; a string, a name from `model.skins` (looked up next to the model) or else a
 * URL; `undefined`, skin 0 when the model names one and came from a URL (`modelUrl`, or the URL an
 * `MD2Loader` fetched it from: `useMD2`, `useLoader(MD2Loader)`). Suspends while loading; a new skin
 * keeps the one on screen (a URL's, a name's or a `Texture` given) until it has loaded (a deferred
 * value), so switching never hides the model or draws it bare.
 */
export function useSkinProp(
  model: MD2ModelData,
  skin: MD2SkinProp,
  modelUrl?: string,
  onSkinError?: (error: MD2Error) => void,
): Texture | undefined {
  // Skins larger than this renderer can hold are resampled as they are decoded.
  loader.maxTextureSize = useMaxTextureSize(Infinity)
  const loadedFrom = modelUrl ?? md2SourceUrl(model)
  const key = skinKey(model, skin, loadedFrom)
  const deferred = useDeferredValue(key)
  // The skin asked for is held (a newer one aborts its load); the one shown stays held until replaced.
  useSkinHold(key)
  useSkinHold(deferred)
  const result = skin === null || typeof skin === 'object' ? undefined : readSkinKey(model, deferred)
  const error = result?.error
  const report = useRef(onSkinError)
  report.current = onSkinError
  useEffect(() => {
    if (error) report.current?.(error)
  }, [error])
  // While a new skin loads (the deferred key lags), what is on screen stays: also a Texture given before.
  const shown = useRef<Texture | undefined>(undefined)
  const texture = skin === null ? undefined : typeof skin === 'object' ? skin : deferred === key ? result?.texture : shown.current
  useLayoutEffect(() => {
    shown.current = texture
  })
  return texture
}

/** A string naming what to show, for `useDeferredValue`: `url:…`, `name:<model url>\0<name>`, `index:…`. */
function skinKey(model: MD2ModelData, skin: MD2SkinProp, loadedFrom: string | undefined): string | undefined {
  if (skin === null || typeof skin === 'object') return undefined
  const base = loadedFrom ?? model.name ?? ''
  if (skin === undefined)
    return loadedFrom !== undefined && model.skins.length > 0 ? `name:${loadedFrom}${SEPARATOR}${model.skins[0]}` : undefined
  if (typeof skin === 'number') {
    const name = Number.isInteger(skin) ? model.skins[skin] : undefined
    return name === undefined ? `index:${base}${SEPARATOR}${skin}` : `name:${base}${SEPARATOR}${name}`
  }
  // A name from the model's list, or a bare file name next to a loaded model, is looked for in its likely spellings.
  return model.skins.includes(skin) || (loadedFrom !== undefined && isFileName(skin))
    ? `name:${base}${SEPARATOR}${skin}`
    : `url:${skinUrlNextTo(loadedFrom, skin)}`
}

/** Holds a skin key (`url:…`, `name:…`) in its cache while the component is mounted with it. */
function useSkinHold(key: string | undefined): void {
  useEffect(() => {
    if (key === undefined) return undefined
    const { kind, rest } = splitSkinKey(key)
    if (kind === 'url') return urlSkins.hold(rest)
    if (kind === 'name') return resolutions.hold(rest)
    return undefined
  }, [key])
}

function splitSkinKey(key: string): { kind: string; rest: string } {
  const colon = key.indexOf(':')
  return { kind: key.slice(0, colon), rest: key.slice(colon + 1) }
}

/** A file name with no folder and no scheme (`khorne.pcx`, `ctf_b.PCX`). */
function isFileName(skin: string): boolean {
  return !/[/\\]/.test(skin) && !hasUrlScheme(skin)
}

/**
 * @internal The texture of the image file `name` next to the model at `modelUrl`, looked for in its
 * likely spellings; the checkerboard (warned once) when it is nowhere. Suspends while loading.
 */
export function readSkinNextTo(modelUrl: string, name: string): Texture {
  return resolutions.read(`${modelUrl}${SEPARATOR}${name}`).texture
}

function readSkinKey(model: MD2ModelData, key: string | undefined): SkinUrlResult | undefined {
  if (key === undefined) return undefined
  const { kind, rest } = splitSkinKey(key)
  if (kind === 'url') return urlSkins.read(rest)
  if (kind === 'name') return resolutions.read(rest)
  const at = rest.indexOf(SEPARATOR)
  return { texture: readModelSkin(model, Number(rest.slice(at + 1)), rest.slice(0, at)) }
}

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
 */
export function useMD2Skin(url: string): Texture
export function useMD2Skin(url: string | undefined): Texture | undefined
export function useMD2Skin(model: MD2ModelData, skin: number | string): Texture
export function useMD2Skin(given: string | MD2ModelData | undefined, skin?: number | string): Texture | undefined {
  const url = useArchiveUrl(typeof given === 'string' ? given : undefined)
  const source = url ?? given
  useAssetHold(skins, url)
  if (source === undefined) return undefined
  if (typeof source === 'string') return skins.read(source)
  return readModelSkin(source, skin ?? 0)
}

/** Starts loading a skin URL before any component asks for it. */
useMD2Skin.preload = (url: string): Promise<Texture> => skins.preload(url)

/**
 * Looks up the skin `skinName` (as written in a model) next to `modelUrl`, once (the result is
 * cached): the same search `useMD2Skin(model, skin)` and `<MD2Model skin>` do. Never rejects: a
 * skin found nowhere resolves to the checkerboard, `url` undefined.
 */
useMD2Skin.resolve = (modelUrl: string, skinName: string): Promise<ResolvedMD2Skin> =>
  resolutions.preload(`${modelUrl}${SEPARATOR}${skinName}`)

/** The cached texture of a URL if it has loaded, without suspending. */
useMD2Skin.peek = (url: string): Texture | undefined => skins.peek(url)

/**
 * Forgets a cached skin URL (or every one) and disposes its GPU texture: call only when nothing
 * shows it. Skin name look-ups are forgotten too (they run again on next use); the shared
 * checkerboard is never disposed.
 */
useMD2Skin.clear = (url?: string): void => {
  for (const key of url === undefined ? skins.keys() : [url]) skins.peek(key)?.dispose()
  skins.clear(url)
  urlSkins.clear(url)
  resolutions.clear()
  warnedIndex.clear()
  if (url === undefined) listings.clear()
}
