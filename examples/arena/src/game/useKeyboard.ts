import { useEffect, useRef, type RefObject } from 'react'

export interface Keyboard {
  /** Keys held now (`KeyboardEvent.key`, lower case: `w`, `arrowup`, ` `). */
  held: RefObject<Set<string>>
  /** Keys pressed since the game last read them, in order: a tap shorter than a frame still counts. */
  pressed: RefObject<string[]>
}

/** Keys that would scroll the page: the game has them. */
const GAME_KEYS = new Set([' ', 'arrowup', 'arrowdown', 'arrowleft', 'arrowright'])

/** The keyboard as a game reads it: what is held, and what was pressed since the last frame. */
export function useKeyboard(): Keyboard {
  const held = useRef(new Set<string>())
  const pressed = useRef<string[]>([])
  useEffect(() => {
    const down = (event: KeyboardEvent) => {
      const key = event.key.toLowerCase()
      if (!event.repeat) pressed.current.push(key)
      held.current.add(key)
      if (GAME_KEYS.has(key)) event.preventDefault()
    }
    const up = (event: KeyboardEvent) => held.current.delete(event.key.toLowerCase())
    // A key released while the window is not focused never sends keyup: let go of everything.
    const blur = () => held.current.clear()
    window.addEventListener('keydown', down)
    window.addEventListener('keyup', up)
    window.addEventListener('blur', blur)
    return () => {
      window.removeEventListener('keydown', down)
      window.removeEventListener('keyup', up)
      window.removeEventListener('blur', blur)
    }
  }, [])
  return { held, pressed }
}
