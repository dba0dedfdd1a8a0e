import { Component, useEffect, type ReactNode } from 'react'
import { isMD2Error } from '../../src/index'

interface Props {
  /** Rendered instead of the children when they throw. */
  fallback: (error: unknown) => ReactNode
  children?: ReactNode
}

/** A plain React error boundary: a failing model fails here, locally, and the scene goes on. */
export class ErrorBoundary extends Component<Props, { error: unknown }> {
  override state: { error: unknown } = { error: null }

  static getDerivedStateFromError(error: unknown) {
    return { error }
  }

  override render() {
    return this.state.error ? this.props.fallback(this.state.error) : this.props.children
  }
}

/** "MD2Error TRUNCATED: <url>, frames at offset …: …" for an MD2Error; the message otherwise. */
export function describeError(error: unknown): string {
  if (isMD2Error(error)) return `MD2Error ${error.code}: ${error.message}`
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}

/** Window `error` events that `<ExpectReportedErrors>` did not expect (a play function fails on them). */
export const unexpectedReportedErrors: unknown[] = []

/**
 * R3F 9 reports every error that an error boundary inside the Canvas caught through `reportError`,
 * i.e. as a window `error` event (an "uncaught" error in the console, an unhandled error to vitest
 * and to Storybook's Interactions panel). In a scene that fails on purpose, handle the expected ones
 * first (a capturing listener runs before the others on the window) and keep any other for the play
 * function to fail on.
 */
export function ExpectReportedErrors({ expected }: { expected: (error: unknown) => boolean }) {
  useEffect(() => {
    const listener = (event: ErrorEvent) => {
      if (expected(event.error)) {
        // Handled here: no "uncaught" line in the console, and Storybook's own listener (registered
        // earlier, not capturing) never reports it as an unhandled error of the story.
        event.preventDefault()
        event.stopImmediatePropagation()
      } else unexpectedReportedErrors.push(event.error ?? event.message)
    }
    window.addEventListener('error', listener, { capture: true })
    return () => window.removeEventListener('error', listener, { capture: true })
  }, [expected])
  return null
}
