import { useEffect, useState } from 'react'

/** How many mounted components hold each owned value (StrictMode's replay holds it again before it would go). */
const holds = new WeakMap<object, number>()

/**
 * A resource made while rendering (a geometry, a material, a crowd) and disposed when its component lets it
 * go: made once per `deps`, even where StrictMode calls `useMemo`'s and `useState`'s factories twice (the
 * second one would never be disposed), and kept through StrictMode's effect replay (unmount and mount again
 * in one commit): the dispose waits a microtask, and a component holding the value again by then keeps it.
 */
export function useOwned<T extends { dispose(): void } | undefined>(create: () => T, deps: readonly unknown[]): T {
  const [box] = useState<{ value?: T; deps?: readonly unknown[] }>({})
  if (!box.deps || deps.some((dep, i) => !Object.is(dep, box.deps![i]))) {
    box.value = create()
    box.deps = deps
  }
  const value = box.value as T
  useEffect(() => {
    if (!value) return
    holds.set(value, (holds.get(value) ?? 0) + 1)
    return () => {
      holds.set(value, holds.get(value)! - 1)
      queueMicrotask(() => {
        if (holds.get(value) === 0 && holds.delete(value)) value.dispose()
      })
    }
  }, [value])
  return value
}
