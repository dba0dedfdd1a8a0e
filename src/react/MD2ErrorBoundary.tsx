import { context as canvasContext } from '@react-three/fiber'
import { Component, type ErrorInfo, type HTMLAttributes, type ReactNode } from 'react'
import { isMD2Error } from '../core/MD2Error.js'
import { clearFailedLoads } from './loading/assetCache.js'

export interface MD2ErrorBoundaryProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children' | 'onError'> {
  children?: ReactNode
  /**
   * Shown instead of the children once they throw: an element, or a function of the error and `reset`
   * (which forgets every failed load and renders the children again). Default: outside a `<Canvas>`, the
   * error's code and message (which names the file and why) with a "Try again" button, in a `<div
   * role="alert">` taking the other props; inside a `<Canvas>`, nothing (a DOM element cannot be drawn
   * there: give a `fallback` of your own, or put the boundary around the `<Canvas>`).
   */
  fallback?: ReactNode | ((props: { error: Error; reset: () => void }) => ReactNode)
  /** Called once for each error caught, with React's component stack. */
  onError?: (error: Error, info: ErrorInfo) => void
  /** Resets (as `reset` does) when one of these changes, by `Object.is`: the URL that failed, fixed. */
  resetKeys?: readonly unknown[]
}

interface State {
  error: Error | null
}

/**
 * An error boundary for what the package throws: shows the `MD2Error`'s code and message (naming the file
 * and why) with a reset that loads the failed files again. Works around a `<Canvas>` (its DOM fallback) and
 * inside one (around a model, a fallback of your own); an error it caught is not also reported as an
 * uncaught page error (R3F reports the errors boundaries catch in its canvas through `reportError`).
 */
export class MD2ErrorBoundary extends Component<MD2ErrorBoundaryProps, State> {
  // R3F's store: set inside a <Canvas>, null outside one. Read without `useThree`, which throws outside.
  static override contextType = canvasContext
  override state: State = { error: null }

  static getDerivedStateFromError(thrown: unknown): State {
    const error = thrown instanceof Error ? thrown : new Error(String(thrown))
    // Known as handled before R3F's commit reports it (a boundary inside the canvas).
    if (error === thrown) handled.add(error)
    return { error }
  }

  override componentDidMount(): void {
    if (!this.context) outsideCanvas++
  }

  override componentWillUnmount(): void {
    if (!this.context) outsideCanvas--
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    this.props.onError?.(error, info)
  }

  override componentDidUpdate(previous: MD2ErrorBoundaryProps, previousState: State): void {
    // Keys changed after the error was shown (not by the update that threw): the cause may be fixed.
    if (this.state.error && previousState.error && changed(previous.resetKeys, this.props.resetKeys)) this.reset()
  }

  /** Forgets every failed load (so the children load them afresh) and renders the children again. */
  reset = (): void => {
    clearFailedLoads()
    this.setState({ error: null })
  }

  override render(): ReactNode {
    const { error } = this.state
    const { children, fallback, onError: _onError, resetKeys: _resetKeys, ...rest } = this.props
    if (!error) return children
    if (typeof fallback === 'function') return fallback({ error, reset: this.reset })
    if (fallback !== undefined || this.context) return fallback ?? null
    return (
      <div role="alert" style={{ color: 'crimson', padding: 16, fontFamily: 'monospace' }} {...rest}>
        <pre style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{describeError(error)}</pre>
        <button type="button" onClick={this.reset}>
          Try again
        </button>
      </div>
    )
  }
}

/** "MD2Error LOAD_FAILED: /players/ogro/tris.md2: HTTP 404 …" for an MD2Error; "TypeError: …" otherwise. */
function describeError(error: Error): string {
  return isMD2Error(error) ? `MD2Error ${error.code}: ${error.message}` : `${error.name}: ${error.message}`
}

function changed(a: readonly unknown[] = [], b: readonly unknown[] = []): boolean {
  return a.length !== b.length || a.some((value, i) => !Object.is(value, b[i]))
}

/** Errors a mounted `MD2ErrorBoundary` caught. */
const handled = new WeakSet<object>()
/** `MD2ErrorBoundary`s mounted outside any `<Canvas>`. */
let outsideCanvas = 0
/** Errors held and then let through, unclaimed: not held again. */
const released = new WeakSet<object>()
/**
 * How long an `MD2Error` reported from inside a canvas waits for a boundary outside it to claim it: R3F's
 * canvas reports it as it hands it to its `<Canvas>` element, which throws it to the DOM tree in a later render.
 */
const CLAIM_MS = 1000

/**
 * R3F 9 reports every error caught in its canvas, by a boundary there or by its own (which rethrows it to the
 * DOM tree, around the `<Canvas>`), through `reportError`: a window `error` event, an uncaught error to the
 * console, Vite's overlay and error trackers. One an `MD2ErrorBoundary` caught stops here (listening in the
 * capture phase, before the page's own listeners). One on its way out of a canvas is held until a boundary
 * outside claims it, and reported again if none does.
 */
function onWindowError(event: ErrorEvent): void {
  const error: unknown = event.error
  if (typeof error !== 'object' || error === null || released.has(error)) return
  if (handled.has(error)) {
    event.preventDefault()
    event.stopImmediatePropagation()
  } else if (outsideCanvas > 0 && isMD2Error(error)) {
    event.preventDefault()
    event.stopImmediatePropagation()
    setTimeout(() => {
      if (handled.has(error)) return
      released.add(error)
      reportError(error)
    }, CLAIM_MS)
  }
}

// From the start, ahead of listeners added later (a test's, an error tracker's): only imported, never bundled unused.
if (typeof window !== 'undefined') window.addEventListener('error', onWindowError, { capture: true })
