import { useDeferredValue, useEffect, useLayoutEffect, useRef } from 'react'
import type { Texture } from 'three'
import type { MD2Error } from '../../core/MD2Error.js'
import { hasUrlScheme, skinUrlNextTo } from '../../core/images/skinPaths.js'
import type { MD2ModelData } from '../../core/format/types.js'
import { md2SourceUrl } from '../../three/loaders/MD2Loader.js'
import { sameKey, useAssetHold, useSameKey } from './assetCache.js'
import { missingSkin, modelSkinSearch, registerListing, skinLoader, skinSearches, skinUrls, type SkinUrlResult } from './skinSearch.js'
import { useArchiveUrl } from './useArchiveUrl.js'
import { useMaxTextureSize } from './useMaxTextureSize.js'

/** What `<MD2Model skin>` accepts. */
export type MD2SkinProp = string | number | Texture | null | undefined

/** What a skin prop shows, by value: an image URL, a name looked for next to the model, or an index the model lacks. */
type SkinChoice =
  | { readonly kind: 'url'; readonly url: string }
  | { readonly kind: 'name'; readonly url: string; readonly name: string }
  | { readonly kind: 'missing'; readonly url: string; readonly index: number }

/** Where the model of a skin prop came from. */
export interface SkinPropOptions {
  /** The URL the model was loaded from (skin names are looked for next to it); default `md2SourceUrl(model)`. */
  modelUrl?: string
  /** The files next to the model, as a build-time listing: names are looked for only among them. */
  files?: readonly string[]
  /** A skin failed: the checkerboard is shown, and this says why. */
  onSkinError?: (error: MD2Error) => void
}

/**
 * @internal The texture for `<MD2Model skin>`: a `Texture` as given; `null` none; a number, an index
 * into `model.skins`; a string, a name from `model.skins` (looked up next to the model) or else a
 * URL (a path inside the enclosing `<MD2Archive>`); `undefined`, skin 0 when the model names one and
 * came from a URL (`modelUrl`, or the URL an `MD2Loader` fetched it from: `useMD2`,
 * `useLoader(MD2Loader)`). Suspends while loading; a new skin keeps the one on screen (a URL's, a
 * name's or a `Texture` given) until it has loaded (a deferred value), so switching never hides the
 * model or draws it bare.
 */
export function useSkinProp(model: MD2ModelData, skin: MD2SkinProp, options: SkinPropOptions = {}): Texture | undefined {
  // Skins larger than this renderer can hold are resampled as they are decoded.
  skinLoader.maxTextureSize = useMaxTextureSize(Infinity)
  const skinPath = useArchiveUrl(typeof skin === 'string' && /[\\/]/.test(skin) ? skin : undefined)
  const loadedFrom = options.modelUrl ?? md2SourceUrl(model)
  registerListing(loadedFrom, options.files)
  const choice = useSameKey(skinChoice(model, skinPath ?? skin, loadedFrom))
  const deferred = useDeferredValue(choice)
  // The skin asked for is held (a newer one aborts its load); the one shown stays held until replaced.
  useChoiceHold(choice)
  useChoiceHold(deferred)
  const result = skin === null || typeof skin === 'object' ? undefined : readChoice(model, deferred)
  const error = result?.error
  // Once per error: not again when StrictMode replays the effect.
  const report = useRef<{ on?: (error: MD2Error) => void; done?: MD2Error }>({})
  report.current.on = options.onSkinError
  useEffect(() => {
    const said = report.current
    if (error && said.done !== error) said.on?.((said.done = error))
  }, [error])
  // While a new skin loads (the deferred choice lags), what is on screen stays: also a Texture given before.
  const shown = useRef<Texture | undefined>(undefined)
  const texture = skin === null ? undefined : typeof skin === 'object' ? skin : sameKey(deferred, choice) ? result?.texture : shown.current
  useLayoutEffect(() => {
    shown.current = texture
  })
  return texture
}

function skinChoice(model: MD2ModelData, skin: MD2SkinProp, loadedFrom: string | undefined): SkinChoice | undefined {
  if (skin === null || typeof skin === 'object') return undefined
  if (skin === undefined)
    return loadedFrom !== undefined && model.skins.length > 0
      ? { kind: 'name', url: loadedFrom, name: model.skins[0]! }
      : // Nothing to show by itself: the checkerboard and a warning, never a plain white model.
        { kind: 'missing', url: loadedFrom ?? model.name ?? '', index: -1 }
  const base = loadedFrom ?? model.name ?? ''
  if (typeof skin === 'number') {
    const search = modelSkinSearch(model, skin, base)
    return search ? { kind: 'name', ...search } : { kind: 'missing', url: base, index: skin }
  }
  // A name from the model's list, or a bare file name next to a loaded model, is looked for in its likely spellings.
  return model.skins.includes(skin) || (loadedFrom !== undefined && isFileName(skin))
    ? { kind: 'name', url: base, name: skin }
    : { kind: 'url', url: skinUrlNextTo(loadedFrom, skin) }
}

/** Holds a choice's cache entry while the component is mounted with it. */
function useChoiceHold(choice: SkinChoice | undefined): void {
  useAssetHold(skinUrls, choice?.kind === 'url' ? { url: choice.url } : undefined)
  useAssetHold(skinSearches, choice?.kind === 'name' ? { url: choice.url, name: choice.name } : undefined)
}

function readChoice(model: MD2ModelData, choice: SkinChoice | undefined): SkinUrlResult | undefined {
  if (choice === undefined) return undefined
  if (choice.kind === 'url') return skinUrls.read({ url: choice.url })
  if (choice.kind === 'name') return skinSearches.read({ url: choice.url, name: choice.name })
  return { texture: missingSkin(model, choice.index, choice.url) }
}

/** A file name with no folder and no scheme (`khorne.pcx`, `ctf_b.PCX`). */
function isFileName(skin: string): boolean {
  return !/[/\\]/.test(skin) && !hasUrlScheme(skin)
}
