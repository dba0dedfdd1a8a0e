import { Loader, type LoadingManager } from 'three'
import { MD2Error } from '../../core/MD2Error.js'
import { hasUrlScheme } from '../../core/images/skinPaths.js'
import { readFromArchive } from './archiveMounts.js'

/** How a loader fetches: its manager, path, headers and credentials, and who may cancel. */
export interface FetchBytesOptions {
  manager: LoadingManager
  /** Prefix of relative URLs (`Loader.setPath`). */
  path?: string
  requestHeader?: Record<string, string>
  withCredentials?: boolean
  /** Cancels the request (the error is an `AbortError`, not an `MD2Error`). */
  signal?: AbortSignal
  onProgress?: (event: ProgressEvent) => void
  /** What is fetched, for messages. */
  format: FetchedFormat
}

/** What a loader fetches, as its messages name it. */
export interface FetchedFormat {
  /** The loader, for a missing URL: "MD2Loader". */
  loader: string
  /** What is expected, for an HTML page: "an MD2 file", "a skin image". */
  expected: string
  /** How to decode bytes read some other way, for Node: "parseMD2(bytes)". */
  parse: string
  /** The file part errors name. */
  section?: string
}

/** Throws `BAD_ARGUMENT` unless `url` is a non-empty string. */
export function checkUrl(url: unknown, what: string): asserts url is string {
  if (typeof url !== 'string' || url.trim() === '') {
    throw new MD2Error('BAD_ARGUMENT', `${what} needs a URL, got ${url === '' ? 'an empty string' : String(url)}`)
  }
}

/**
 * The fetch plumbing of `MD2Loader` and `MD2SkinLoader`: fetches `url` and turns the bytes into a
 * result with `decode(bytes, resolvedUrl)`, reporting the item to the manager exactly once (start,
 * then error if anything failed, then end). Failures are `MD2Error` `LOAD_FAILED` naming the URL and the HTTP status; an HTML page
 * where a file was expected (a dev server's answer to a wrong path or case) is named as such, with its
 * status and content type; a relative URL where there is no page to resolve it against (Node) says so.
 */
export async function fetchAndDecode<T>(
  url: string,
  options: FetchBytesOptions,
  decode: (bytes: Uint8Array<ArrayBuffer>, resolvedUrl: string) => T | Promise<T>,
): Promise<T> {
  checkUrl(url, options.format.loader)
  const resolved = options.manager.resolveURL((options.path ?? '') + url)
  return asManagerItem(options.manager, resolved, options.format.section, async () => decode(await request(resolved, options), resolved))
}

/**
 * Runs `work` as one `LoadingManager` item named `resolved` (start, then error if it failed, then end).
 * An abort and an `MD2Error` pass through; any other failure becomes `LOAD_FAILED` naming the URL.
 */
export async function asManagerItem<T>(
  manager: LoadingManager,
  resolved: string,
  section: string | undefined,
  work: () => Promise<T>,
): Promise<T> {
  manager.itemStart(resolved)
  try {
    const result = await work()
    manager.itemEnd(resolved)
    return result
  } catch (error) {
    manager.itemError(resolved)
    manager.itemEnd(resolved)
    if (isAbort(error)) throw error
    throw error instanceof MD2Error
      ? error
      : new MD2Error('LOAD_FAILED', `could not load: ${reasonOf(error)}`, { file: resolved, section, cause: error })
  }
}

async function request(url: string, options: FetchBytesOptions): Promise<Uint8Array<ArrayBuffer>> {
  const section = options.format.section
  const inArchive = readFromArchive(url)
  if (inArchive) {
    const bytes = await inArchive.bytes
    options.signal?.throwIfAborted()
    if (!bytes) throw new MD2Error('LOAD_FAILED', `could not load: no such file in the archive ${inArchive.base}`, { file: url, section })
    // A view on the archive's bytes, which nothing writes to.
    return bytes as Uint8Array<ArrayBuffer>
  }
  if (!hasUrlScheme(url) && typeof location === 'undefined') {
    throw new MD2Error(
      'BAD_ARGUMENT',
      `a relative URL needs a page to resolve it against; in Node give an absolute URL (http://…, file://…) or read the file yourself and call ${options.format.parse}`,
      { file: url, section },
    )
  }
  return (await fetchChecked(url, options)).bytes
}

/**
 * One HTTP request with the loader's headers and credentials (and a `Range`, when given): the response
 * and its body, refused with `LOAD_FAILED` on an error status or an HTML page where a file was expected.
 */
export async function fetchChecked(
  url: string,
  options: Pick<FetchBytesOptions, 'requestHeader' | 'withCredentials' | 'signal' | 'onProgress' | 'format'>,
  range?: string,
): Promise<{ response: Response; bytes: Uint8Array<ArrayBuffer> }> {
  const section = options.format.section
  const response = await fetch(url, {
    headers: range ? { ...options.requestHeader, Range: range } : options.requestHeader,
    credentials: options.withCredentials ? 'include' : 'same-origin',
    signal: options.signal,
  })
  const type = response.headers?.get('content-type') ?? ''
  // Status 0: a file:// or opaque response, which carries no status.
  if (response.status !== 0 && (response.status < 200 || response.status > 299)) {
    throw new MD2Error('LOAD_FAILED', `could not load: HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`, {
      file: url,
      section,
    })
  }
  const bytes = await readBody(response, options.onProgress)
  if (/\btext\/html\b/i.test(type) || looksLikeHtml(bytes)) {
    throw new MD2Error(
      'LOAD_FAILED',
      `got an HTML page, not ${options.format.expected} (HTTP ${response.status}${type ? `, ${type}` : ''}): check the URL and its case`,
      { file: url, section },
    )
  }
  return { response, bytes }
}

/** The body, reporting progress as it arrives when someone listens. */
async function readBody(response: Response, onProgress: ((event: ProgressEvent) => void) | undefined): Promise<Uint8Array<ArrayBuffer>> {
  const total = Number(response.headers?.get('content-length') ?? 0)
  if (!onProgress || !response.body) {
    const bytes = new Uint8Array(await response.arrayBuffer())
    onProgress?.(progressEvent(bytes.length, total || bytes.length))
    return bytes
  }
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let loaded = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    loaded += value.length
    onProgress(progressEvent(loaded, total))
  }
  const bytes = new Uint8Array(loaded)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.length
  }
  return bytes
}

function progressEvent(loaded: number, total: number): ProgressEvent {
  if (typeof ProgressEvent === 'function') return new ProgressEvent('progress', { lengthComputable: total > 0, loaded, total })
  return { type: 'progress', lengthComputable: total > 0, loaded, total } as ProgressEvent
}

/** A document starting (after white space or a byte-order mark) with `<!doctype` or `<html`. */
export function looksLikeHtml(bytes: Uint8Array): boolean {
  let i = 0
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++
  const head = String.fromCharCode(...bytes.subarray(i, i + 9)).toLowerCase()
  return head.startsWith('<!doctype') || head.startsWith('<html')
}

export function isAbort(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError'
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** What a `loadWith` call may add: a cancel signal and a progress callback. */
export interface LoadWithOptions {
  signal?: AbortSignal
  onProgress?: (event: ProgressEvent) => void
}

/**
 * A three.js loader whose work is `loadWith(url, { signal })`: three's callback `load` (and so
 * `loadAsync` and `useLoader`) goes through it (an error with no `onError` is logged).
 */
export abstract class AsyncLoader<T> extends Loader<T> {
  abstract loadWith(url: string, options?: LoadWithOptions): Promise<T>

  override load(
    url: string,
    onLoad: (value: T) => void,
    onProgress?: (event: ProgressEvent) => void,
    onError?: (error: unknown) => void,
  ): void {
    this.loadWith(url, { onProgress }).then(onLoad, (error: unknown) => {
      if (onError) onError(error)
      else console.error(error)
    })
  }
}

/**
 * A three.js loader of one file format over `fetchAndDecode`: `loadWith(url, { signal })` fetches with
 * the loader's manager, path, headers and credentials and decodes with `decode`.
 */
export abstract class FormatLoader<T> extends AsyncLoader<T> {
  protected abstract readonly format: FetchedFormat
  protected abstract decode(bytes: Uint8Array<ArrayBuffer>, resolvedUrl: string, url: string): T | Promise<T>

  /** `loadAsync` with a cancel signal: an aborted load rejects with the `AbortError`. */
  loadWith(url: string, options: LoadWithOptions = {}): Promise<T> {
    const { manager, path, requestHeader, withCredentials } = this
    return fetchAndDecode(url, { manager, path, requestHeader, withCredentials, ...options, format: this.format }, (bytes, resolved) =>
      this.decode(bytes, resolved, url),
    )
  }
}
