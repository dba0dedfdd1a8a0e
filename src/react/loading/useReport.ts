import { useEffect, useRef } from 'react'
import type { MD2Error } from '../../core/MD2Error.js'

/**
 * Calls the latest `handler` once for each new `error` (`onSkinError`, `onWeaponError`) after it commits: not
 * again when StrictMode replays the effects of a component, nor when a render gives the same error.
 */
export function useReport(error: MD2Error | undefined, handler: ((error: MD2Error) => void) | undefined): void {
  const latest = useRef(handler)
  latest.current = handler
  const reported = useRef<MD2Error>(undefined)
  useEffect(() => {
    if (!error || reported.current === error) return
    reported.current = error
    latest.current?.(error)
  }, [error])
}
