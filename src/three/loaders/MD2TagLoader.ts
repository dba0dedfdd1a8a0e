import { isMD2Error } from '../../core/MD2Error.js'
import { parseMD2Tags, type MD2Tags } from '../../core/tags/parseMD2Tags.js'
import { FormatLoader } from './fetchBytes.js'

const TAG_FORMAT = { loader: 'MD2TagLoader', expected: 'a tag file', parse: 'parseMD2Tags(bytes)', section: 'tags' }

/**
 * A three.js loader for UFO:AI tag files (`body.tag`, the `JDP2` format), so `useLoader(MD2TagLoader, url)`
 * works too. Every failure is an `MD2Error` naming the URL: `LOAD_FAILED` for the fetch, the parser's code otherwise.
 */
export class MD2TagLoader extends FormatLoader<MD2Tags> {
  protected readonly format = TAG_FORMAT

  protected decode(bytes: Uint8Array<ArrayBuffer>, _resolved: string, url: string): MD2Tags {
    return this.parse(bytes, url)
  }

  parse(data: ArrayBuffer | Uint8Array, name?: string): MD2Tags {
    try {
      return parseMD2Tags(data, { name })
    } catch (error) {
      throw isMD2Error(error) && name !== undefined ? error.withFile(name) : error
    }
  }
}
