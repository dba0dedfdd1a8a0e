import type { ReactNode } from 'react'
import { MD2ErrorBoundary } from '../../src/react/MD2ErrorBoundary'

/** The package's error boundary, rendering nothing after an error and reporting it. */
export function Boundary({ children, onError }: { children: ReactNode; onError?: (error: unknown) => void }) {
  return (
    <MD2ErrorBoundary fallback={null} onError={onError}>
      {children}
    </MD2ErrorBoundary>
  )
}
