import { openArchive, openArchiveByRanges, type MD2RangeArchive } from '../../core/archive/openArchive.js'
import { MD2Error } from '../../core/MD2Error.js'
import { archiveBase, mountArchive } from './archiveMounts.js'
import { AsyncLoader, asManagerItem, checkUrl, fetchChecked, type LoadWithOptions } from './fetchBytes.js'

/** An archive opened from a URL: its listing, reads that wait, and how it is read. */
export interface LoadedMD2Archive extends MD2RangeArchive {
  /** The archive's URL, resolved. */
  readonly url: string
  /** The URL its files are addressed under (`…/pak0.pak/`); `mount` makes loaders read them from the archive. */
  readonly base: string
  /** The archive's size in bytes. */
  readonly size: number
  /** True when the server answers range requests: each file is fetched alone; else the archive was fetched whole. */
  readonly ranged: boolean
  /** Requests made so far (the first, the directory, one per file read). */
  readonly requests: number
  /** Makes every loader read URLs under `base` from this archive; returns the unmount. */
  mount(): () => void
}

/** The first request asks for this much: a small archive arrives whole, a large one's head (and a PACK header) with it. */
const FIRST_RANGE = 64 * 1024
const SECTION = 'archive'
const ARCHIVE_FORMAT = { loader: 'MD2ArchiveLoader', expected: 'an archive', parse: 'openArchive(bytes)', section: SECTION }

/**
 * A three.js loader for Quake II `.pak` and `.pk3`/`.zip` archives. Where the server answers HTTP range
 * requests, only the directory is fetched on load and each file when it is read, so a large archive is
 * never downloaded whole; otherwise the archive is fetched once and read from memory. Failures are
 * `MD2Error`s naming the URL: `LOAD_FAILED` for the fetch, the archive reader's codes for damage.
 */
export class MD2ArchiveLoader extends AsyncLoader<LoadedMD2Archive> {
  async loadWith(url: string, options: LoadWithOptions = {}): Promise<LoadedMD2Archive> {
    checkUrl(url, ARCHIVE_FORMAT.loader)
    const resolved = this.manager.resolveURL((this.path ?? '') + url)
    return asManagerItem(this.manager, resolved, SECTION, () => this.open(resolved, options.signal))
  }

  private async open(url: string, signal: AbortSignal | undefined): Promise<LoadedMD2Archive> {
    let requests = 0
    const fetchOptions = { requestHeader: this.requestHeader, withCredentials: this.withCredentials, signal, format: ARCHIVE_FORMAT }
    const get = (range: string) => {
      requests++
      return fetchChecked(url, fetchOptions, range)
    }
    const first = await get(`bytes=0-${FIRST_RANGE - 1}`)
    const total = first.response.status === 206 ? Number(/\/(\d+)\s*$/.exec(first.response.headers.get('content-range') ?? '')?.[1]) : NaN
    const loaded = (archive: MD2RangeArchive, size: number, ranged: boolean): LoadedMD2Archive => {
      const base = archiveBase(url)
      const result: LoadedMD2Archive = {
        ...archive,
        url,
        base,
        size,
        ranged,
        get requests() {
          return requests
        },
        mount: () => mountArchive(base, result),
      }
      return result
    }
    if (!Number.isFinite(total) || total <= first.bytes.length) {
      // The server sent the whole file (no range support, or the archive is small).
      const files = openArchive(first.bytes, { name: url })
      return loaded({ ...files, read: async (name) => files.read(name) }, first.bytes.length, false)
    }
    const head = first.bytes
    const archive = await openArchiveByRanges({
      size: total,
      name: url,
      read: async (offset, length) => {
        if (offset + length <= head.length) return head.subarray(offset, offset + length)
        const { response, bytes } = await get(`bytes=${offset}-${offset + length - 1}`)
        if (response.status !== 206 || bytes.length !== length)
          throw new MD2Error('LOAD_FAILED', `asked for ${length} bytes at ${offset}, got ${bytes.length} (HTTP ${response.status})`, {
            file: url,
            section: SECTION,
            offset,
          })
        return bytes
      },
    })
    return loaded(archive, total, true)
  }
}
