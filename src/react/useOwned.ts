import { useEffect, useState } from 'react'

/**
 * A resource made while rendering (a geometry, a material, a crowd) and disposed when its component lets it
 * go: made once per `deps`, even where StrictMode calls `useMemo`'s and `useState`'s factories twice (the
 * second one would never be disposed), and kept through StrictMode's effect replay (unmount and mount again
 * in one commit): the dispose waits a microtask, and is skipped if the component holds the value again by then.
 */
export function useOwned<T extends { dispose(): void } | undefined>(create: () => T, deps: readonly unknown[]): T {
  const [box] = useState<{ value?: T; deps?: readonly unknown[]; held?: T }>({})
  if (!box.deps || deps.some((dep, i) => dep !== box.deps![i])) {
    box.value = create()
    box.deps = deps
  }
  const value = box.value as T
  useEffect(() => {
    box.held = value
    return () => {
      box.held = undefined
      queueMicrotask(() => box.held !== value && value?.dispose())
    }
  }, [box, value])
  return value
}
