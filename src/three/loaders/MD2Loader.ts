import { isMD2Error } from '../../core/MD2Error.js'
import { checkAnimationDefs } from '../../core/format/animationTable.js'
import { readMD2 } from '../../core/format/parseMD2.js'
import type { MD2AnimationDef, MD2ModelData } from '../../core/format/types.js'
import { FormatLoader } from './fetchBytes.js'

const MD2_FORMAT = { loader: 'MD2Loader', expected: 'an MD2 file', parse: 'parseMD2(bytes)' }

/** Models this loader fetched, with the URL they came from (what skin names are resolved against). */
const sourceUrls = new WeakMap<MD2ModelData, string>()

/**
 * The URL an `MD2Loader` (and so `useMD2` or `useLoader(MD2Loader, …)`) fetched `model` from, or
 * undefined for a model parsed from bytes. Skin names in the file are looked up next to it.
 */
export function md2SourceUrl(model: MD2ModelData): string | undefined {
  return sourceUrls.get(model)
}

/**
 * A three.js loader for MD2 files (`load`, `loadAsync`, `LoadingManager`, progress), so
 * `useLoader(MD2Loader, url)` works too. It yields the parsed `MD2Model` (frames still quantized);
 * turn it into a mesh with `<MD2Model model={...}>` or `createMD2Geometry`. Every failure is an
 * `MD2Error` naming the URL: `LOAD_FAILED` for the fetch, the parser's code otherwise.
 */
export class MD2Loader extends FormatLoader<MD2ModelData> {
  /** An animation table to apply instead of grouping frames by name. */
  animationTable: readonly MD2AnimationDef[] | undefined

  /**
   * Sets the table models are parsed with (`undefined`: none). An entry that cannot be used is warned about
   * once and left out, the rest kept; a rate that is not above 0, or a table that is not an array, is a
   * `BAD_ARGUMENT` `MD2Error`.
   */
  setAnimationTable(table: readonly MD2AnimationDef[] | undefined): this {
    this.animationTable = table === undefined ? undefined : checkAnimationDefs(table, 'MD2Loader.setAnimationTable')
    return this
  }

  protected readonly format = MD2_FORMAT

  protected decode(bytes: Uint8Array<ArrayBuffer>, resolved: string, url: string): MD2ModelData {
    const model = this.parse(bytes, url)
    sourceUrls.set(model, resolved)
    return model
  }

  parse(data: ArrayBuffer | Uint8Array, name?: string): MD2ModelData {
    try {
      return readMD2(data, { name, animations: this.animationTable })
    } catch (error) {
      throw isMD2Error(error) && name !== undefined ? error.withFile(name) : error
    }
  }
}
