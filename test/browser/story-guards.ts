/**
 * Every story test also fails on what a visitor would see go wrong in the console: a console error,
 * a warning, a failed request (HTTP 400 and up, or a network failure) or an error reported to the
 * window that nothing handled. A story that fails on purpose names what it expects in
 * `parameters.expected` (see `.storybook/preview.tsx`), which the preview publishes as
 * `globalThis.__md2StoryExpects`.
 */
import { afterEach, beforeEach } from 'vitest'

interface StoryExpects {
  /** Substrings of request URLs allowed to fail. */
  failedRequests?: string[]
  /** Substrings of console messages (errors or warnings) and of errors reported to the window allowed. */
  messages?: string[]
}

/**
 * Noise from the libraries underneath, not from this one: fiber 9.8 constructs a THREE.Clock; @react-three/rapier
 * 2.2 starts rapier3d-compat's WebAssembly the way its wasm-bindgen calls deprecated (the Physics pages).
 */
const KNOWN_NOISE = ['THREE.Clock: This module has been deprecated', 'using deprecated parameters for the initialization function']

const problems: string[] = []
let restore: (() => void) | undefined

function expects(): StoryExpects {
  return (globalThis as { __md2StoryExpects?: StoryExpects }).__md2StoryExpects ?? {}
}

function allowedMessage(text: string): boolean {
  return KNOWN_NOISE.some((noise) => text.includes(noise)) || (expects().messages ?? []).some((part) => text.includes(part))
}

function allowedRequest(url: string): boolean {
  return (expects().failedRequests ?? []).some((part) => url.includes(part))
}

function text(args: unknown[]): string {
  return args.map((arg) => (arg instanceof Error ? `${arg.name}: ${arg.message}` : String(arg))).join(' ')
}

beforeEach(() => {
  problems.length = 0
  ;(globalThis as { __md2StoryExpects?: StoryExpects }).__md2StoryExpects = undefined
  const { error, warn } = console
  const realFetch = window.fetch
  console.error = (...args: unknown[]) => {
    if (!allowedMessage(text(args))) problems.push(`console.error: ${text(args)}`)
    error.apply(console, args)
  }
  console.warn = (...args: unknown[]) => {
    if (!allowedMessage(text(args))) problems.push(`console.warn: ${text(args)}`)
    warn.apply(console, args)
  }
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    try {
      const response = await realFetch(input, init)
      if (response.status >= 400 && !allowedRequest(url)) problems.push(`failed request: HTTP ${response.status} ${url}`)
      return response
    } catch (failure) {
      const aborted = (failure as { name?: string }).name === 'AbortError'
      if (!aborted && !allowedRequest(url)) problems.push(`failed request: ${url} (${String(failure)})`)
      throw failure
    }
  }
  const onError = (event: ErrorEvent) => {
    const message = text([event.error ?? event.message])
    if (!event.defaultPrevented && !allowedMessage(message)) problems.push(`unhandled error: ${message}`)
  }
  window.addEventListener('error', onError)
  restore = () => {
    console.error = error
    console.warn = warn
    window.fetch = realFetch
    window.removeEventListener('error', onError)
  }
})

afterEach(() => {
  restore?.()
  restore = undefined
  if (problems.length > 0) {
    const found = problems.splice(0)
    throw new Error(`the story logged or requested what a visitor would see fail:\n  ${found.join('\n  ')}`)
  }
})
