import { Component, type ReactNode } from 'react'

/** An error boundary that renders nothing after an error and reports it. */
export class Boundary extends Component<{ children: ReactNode; onError?: (error: unknown) => void }, { failed: boolean }> {
  override state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  override componentDidCatch(error: unknown) {
    this.props.onError?.(error)
  }
  override render() {
    return this.state.failed ? null : this.props.children
  }
}
