import { parseAnimationTable } from '../../core/format/animationTable.js'
import type { MD2AnimationDef } from '../../core/format/types.js'
import { FormatLoader } from '../../three/loaders/fetchBytes.js'
import { createAssetCache, useAssetHold, type AssetKey } from './assetCache.js'
import { checkedTimeout } from './loadTimeout.js'
import { useArchiveUrl } from './useArchiveUrl.js'
import type { UseMD2Options } from './useMD2.js'

const TABLE_FORMAT = {
  loader: 'useMD2AnimationTable',
  expected: 'an animation table',
  parse: 'parseAnimationTable(text)',
  section: 'animation table',
}

/** Fetches a `.anm` as the other loaders fetch (an HTML page, a 404 or a timeout is an `MD2Error` naming the URL). */
class AnimationTableLoader extends FormatLoader<MD2AnimationDef[]> {
  protected readonly format = TABLE_FORMAT

  protected decode(bytes: Uint8Array<ArrayBuffer>, _resolved: string, url: string): MD2AnimationDef[] {
    return parseAnimationTable(new TextDecoder().decode(bytes), url)
  }
}

const loader = new AnimationTableLoader()
/** Tables by URL, shared by every `useMD2AnimationTable`. */
const tables = createAssetCache<AssetKey, MD2AnimationDef[]>(({ url }, signal) => loader.loadWith(url, { signal }), {
  evictUnheld: true,
})

/** How `useMD2AnimationTable` loads: the `timeout` of `useMD2`'s options. */
type UseMD2AnimationTableOptions = Pick<UseMD2Options, 'timeout'>

/**
 * Loads and parses a UFO:AI animation table (`.anm`: `name start end fps` a line) with Suspense, cached by
 * URL, for `<MD2Model animationTable>`, `<MD2Instance animationTable>` or `useMD2Animation`. A failed load
 * or a line that is not `name start end [fps]` throws an `MD2Error` naming the URL to the nearest error
 * boundary; an entry naming frames the model lacks warns once, naming it, where the table meets the model.
 * Held while mounted, as `useMD2`; inside an `<MD2Archive>`, a relative URL is the archive's file.
 * `undefined` loads nothing. `.preload`, `.clear`, `.peek`.
 */
export function useMD2AnimationTable(url: string, options?: UseMD2AnimationTableOptions): MD2AnimationDef[]
export function useMD2AnimationTable(url: string | undefined, options?: UseMD2AnimationTableOptions): MD2AnimationDef[] | undefined
export function useMD2AnimationTable(url: string | undefined, options?: UseMD2AnimationTableOptions): MD2AnimationDef[] | undefined {
  const resolved = useArchiveUrl(url)
  const key = resolved === undefined ? undefined : { url: resolved }
  const timeout = checkedTimeout(options?.timeout, 'useMD2AnimationTable timeout')
  useAssetHold(tables, key, timeout)
  return key && tables.read(key, timeout)
}

/** Starts loading a table before any component asks for it, and keeps it until `clear`. */
useMD2AnimationTable.preload = (url: string): Promise<MD2AnimationDef[]> => tables.preload({ url })

/** Forgets a table (or all), aborting a load in flight; the next use loads it again. */
useMD2AnimationTable.clear = (url?: string): void => tables.clear(url === undefined ? undefined : { url })

/** The table if it has loaded, without suspending. */
useMD2AnimationTable.peek = (url: string): MD2AnimationDef[] | undefined => tables.peek({ url })
