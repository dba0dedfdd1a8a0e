import { useEffect, useState } from 'react'

/**
 * Storybook's Controls change a story's args; a play function cannot (portable stories, as run by
 * @storybook/addon-vitest, do not re-render on arg updates). `setStoryArgs` is the play function's
 * Controls panel: scenes read their args through `useLiveArgs`, which merges the latest
 * `setStoryArgs` values over the story's args until the story's own args change again.
 */
const bus = new EventTarget()
const EVENT = 'story-args'

export function setStoryArgs(update: Record<string, unknown>): void {
  bus.dispatchEvent(new CustomEvent(EVENT, { detail: update }))
}

function sameArgs(a: object, b: object): boolean {
  const keysA = Object.keys(a)
  if (keysA.length !== Object.keys(b).length) return false
  return keysA.every((key) => Object.is((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
}

export function useLiveArgs<T extends object>(args: T): T {
  const [state, setState] = useState<{ base: T; overrides: Partial<T> }>({ base: args, overrides: {} })
  // New args from the Controls panel win over earlier overrides.
  const overrides = sameArgs(state.base, args) ? state.overrides : {}
  useEffect(() => {
    const listener = (event: Event) => {
      const detail = (event as CustomEvent<Partial<T>>).detail
      setState((previous) => ({
        base: args,
        overrides: { ...(sameArgs(previous.base, args) ? previous.overrides : {}), ...detail },
      }))
    }
    bus.addEventListener(EVENT, listener)
    return () => bus.removeEventListener(EVENT, listener)
  }, [args])
  return { ...args, ...overrides }
}
