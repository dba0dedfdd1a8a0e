import { FileLoader, Loader, type LoadingManager } from 'three'
import { MD2Error, isMD2Error } from '../core/errors'
import { parseMD2 } from '../core/parse'
import type { MD2AnimationDef, MD2Model } from '../core/types'

/** Models this loader fetched, with the URL they came from (what skin names are resolved against). */
const sourceUrls = new WeakMap<MD2Model, string>()

/**
 * The URL an `MD2Loader` (and so `useMD2` or `useLoader(MD2Loader, …)`) fetched `model` from, or
 * undefined for a model parsed from bytes. Skin names in the file are looked up next to it.
 */
export function md2SourceUrl(model: MD2Model): string | undefined {
  return sourceUrls.get(model)
}

/**
 * A three.js loader for MD2 files (`load`, `loadAsync`, `LoadingManager`, progress), so
 * `useLoader(MD2Loader, url)` works too. It yields the parsed `MD2Model` (frames still quantized);
 * turn it into a mesh with `<MD2Model model={...}>` or `createMD2Geometry`. Every failure is an
 * `MD2Error` naming the URL: `LOAD_FAILED` for the fetch, the parser's code otherwise.
 */
export class MD2Loader extends Loader<MD2Model> {
  /** An animation table to apply instead of grouping frames by name. */
  animationTable: readonly MD2AnimationDef[] | undefined

  constructor(manager?: LoadingManager) {
    super(manager)
  }

  setAnimationTable(table: readonly MD2AnimationDef[] | undefined): this {
    this.animationTable = table
    return this
  }

  override load(
    url: string,
    onLoad: (model: MD2Model) => void,
    onProgress?: (event: ProgressEvent) => void,
    onError?: (error: unknown) => void,
  ): void {
    const loader = new FileLoader(this.manager)
    loader.setPath(this.path)
    loader.setResponseType('arraybuffer')
    loader.setRequestHeader(this.requestHeader)
    loader.setWithCredentials(this.withCredentials)
    const fail = (error: unknown) => {
      if (onError) onError(error)
      else console.error(error)
      this.manager.itemError(url)
    }
    loader.load(
      url,
      (data) => {
        let model: MD2Model
        try {
          model = this.parse(data as ArrayBuffer, url)
        } catch (error) {
          fail(error)
          return
        }
        sourceUrls.set(model, this.manager.resolveURL(this.path + url))
        onLoad(model)
      },
      onProgress,
      (error) => fail(loadError(url, error)),
    )
  }

  parse(data: ArrayBuffer | Uint8Array, name?: string): MD2Model {
    try {
      return parseMD2(data, { name, animations: this.animationTable })
    } catch (error) {
      throw isMD2Error(error) && name !== undefined ? error.withFile(name) : error
    }
  }
}

function loadError(url: string, error: unknown): MD2Error {
  const reason = error instanceof Error ? error.message : String(error)
  return new MD2Error('LOAD_FAILED', `could not load: ${reason}`, { file: url, cause: error })
}
