import { useLayoutEffect, useState } from 'react'
import { isMD2Error } from '../../src/index'

/** "MD2Error TRUNCATED: <url>, frames at offset …: …" for an MD2Error; the message otherwise. */
export function describeError(error: unknown): string {
  if (isMD2Error(error)) return `MD2Error ${error.code}: ${error.message}`
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}

/** Window `error` events that `<ExpectReportedErrors>` did not expect (a play function fails on them). */
export const unexpectedReportedErrors: unknown[] = []

/** What the mounted `<ExpectReportedErrors>` expect. */
const expectations = new Set<{ current: (error: unknown) => boolean }>()

// Listening from the moment stories load, ahead of Storybook's own listener for a play function (a
// production build reports an error a boundary caught while committing it, so a listener added by an
// effect can come too late), and capturing, so that an expected error stops here.
if (typeof window !== 'undefined')
  window.addEventListener(
    'error',
    (event: ErrorEvent) => {
      if (expectations.size === 0) return
      if ([...expectations].some((expectation) => expectation.current(event.error))) {
        // Handled here: no "uncaught" line in the console, and Storybook never reports it as an
        // unhandled error of the story.
        event.preventDefault()
        event.stopImmediatePropagation()
      } else unexpectedReportedErrors.push(event.error ?? event.message)
    },
    { capture: true },
  )

/**
 * R3F 9 reports every error that an error boundary inside the Canvas caught through `reportError`,
 * i.e. as a window `error` event (an "uncaught" error in the console, an unhandled error to vitest
 * and to Storybook's Interactions panel); `<MD2ErrorBoundary>` stops those it caught itself, ahead of this
 * listener. In a scene that fails on purpose, the expected ones that still come are handled before anything
 * else sees them, and any other is kept for the play function to fail on. Expected from the first render on.
 */
export function ExpectReportedErrors({ expected }: { expected: (error: unknown) => boolean }) {
  const [expectation] = useState(() => ({ current: expected }))
  expectation.current = expected
  expectations.add(expectation)
  useLayoutEffect(() => {
    expectations.add(expectation)
    return () => void expectations.delete(expectation)
  }, [expectation])
  return null
}
