import { useEffect, useRef, type RefObject } from 'react'

export interface Keyboard {
  /** Keys held now (`KeyboardEvent.key`, lower case: `w`, `arrowup`, ` `). */
  held: RefObject<Set<string>>
  /** Keys pressed since the game last read them, in order: a tap shorter than a frame still counts. */
  pressed: RefObject<string[]>
}

/** Keys that would scroll the page: the game has them. */
const GAME_KEYS = new Set([' ', 'arrowup', 'arrowdown', 'arrowleft', 'arrowright'])

/**
 * The keyboard as a game reads it: what is held, and what was pressed since the last frame. Keys go to
 * the whole window, or only to `target` while it has the focus (a game among other things on a page).
 */
export function useKeyboard(target?: RefObject<HTMLElement | null>): Keyboard {
  const held = useRef(new Set<string>())
  const pressed = useRef<string[]>([])
  useEffect(() => {
    // Keyboard events only (the listeners are added for keydown and keyup).
    const down = (event: Event) => {
      const { key: name, repeat } = event as KeyboardEvent
      const key = name.toLowerCase()
      if (!repeat) pressed.current.push(key)
      held.current.add(key)
      if (GAME_KEYS.has(key)) event.preventDefault()
    }
    const up = (event: Event) => void held.current.delete((event as KeyboardEvent).key.toLowerCase())
    // A key released while the window (or the target) has not the focus never sends keyup: let go of everything.
    const blur = () => held.current.clear()
    const source: HTMLElement | Window = target?.current ?? window
    source.addEventListener('keydown', down)
    source.addEventListener('keyup', up)
    source.addEventListener('blur', blur)
    return () => {
      source.removeEventListener('keydown', down)
      source.removeEventListener('keyup', up)
      source.removeEventListener('blur', blur)
    }
  }, [target])
  return { held, pressed }
}
