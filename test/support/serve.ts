import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { vi } from 'vitest'
import { ASSETS_DIR } from './assets'

/** The origin fake requests are served from; `/a/…` paths are the bundled assets. */
export const HOST = 'http://localhost'

export interface FakeServer {
  /** Paths requested, in order (decoded). */
  requests: string[]
  /** Paths whose request was aborted by its signal, in order. */
  aborted: string[]
  /** Requests neither answered nor aborted yet. */
  open(): number
  /** Body bytes sent so far. */
  bytesSent(): number
  /** `Range` headers received, in order. */
  ranges: string[]
}

/**
 * Replaces `fetch` (restored by `vi.restoreAllMocks()`) with a server of `/a/<path under assets/>`
 * and of `files` (a path → bytes, or an HTTP status to answer with). Paths are case-sensitive, as on
 * a real web server. `gate` holds back one path until its promise settles.
 */
export function serveAssets(
  files: Record<string, Uint8Array | number> = {},
  gate?: { path: string; promise: Promise<void> },
  options: { ranges?: boolean } = {},
): FakeServer {
  const requests: string[] = []
  const aborted: string[] = []
  const ranges: string[] = []
  let open = 0
  let sent = 0
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    const path = decodeURIComponent(new URL(url).pathname)
    requests.push(path)
    open++
    try {
      const signal = init?.signal ?? undefined
      // A held-back path waits for its gate or its signal, as a slow server would.
      if (gate && path === gate.path) await untilGateOrAbort(gate.promise, signal)
      if (signal?.aborted) throw signal.reason
      const body = files[path] ?? assetAt(path)
      if (typeof body === 'number') return new Response('error', { status: body })
      if (!body) return new Response('not found', { status: 404, statusText: 'Not Found' })
      const range = new Headers(init?.headers).get('range')
      if (range) ranges.push(range)
      // Single ranges, as static servers answer them, when the server is told to (`bytes=a-b`).
      const asked = options.ranges && range ? /^bytes=(\d+)-(\d+)$/.exec(range) : null
      if (asked) {
        const start = Number(asked[1])
        const end = Math.min(Number(asked[2]), body.length - 1)
        if (start >= body.length) return new Response('', { status: 416 })
        sent += end - start + 1
        return new Response(body.slice(start, end + 1), {
          status: 206,
          headers: { 'Content-Length': String(end - start + 1), 'Content-Range': `bytes ${start}-${end}/${body.length}` },
        })
      }
      sent += body.length
      return new Response(body.slice(), { headers: { 'Content-Length': String(body.length) } })
    } catch (error) {
      if ((error as { name?: string }).name === 'AbortError') aborted.push(path)
      throw error
    } finally {
      open--
    }
  })
  return { requests, aborted, ranges, open: () => open, bytesSent: () => sent }
}

function untilGateOrAbort(gate: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return gate
  return new Promise((resolve, reject) => {
    if (signal.aborted) reject(signal.reason as Error)
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true })
    gate.then(resolve, reject)
  })
}

function assetAt(path: string): Uint8Array | undefined {
  if (!path.startsWith('/a/')) return undefined
  const file = join(ASSETS_DIR, path.slice(3))
  // Names compared as listed, so a case-insensitive disk still serves like a case-sensitive web server.
  if (!existsSync(file) || !statSync(file).isFile() || !readdirSync(dirname(file)).includes(basename(file))) return undefined
  return new Uint8Array(readFileSync(file))
}
