// The core is typed without the DOM or Node: every host it runs in has a console.
declare const console: { warn(message: string): void }

const warned = new Set<string>()

/**
 * Warns once per `key` for the life of the page: props are re-read every render, and a warning
 * repeated at 60 frames a second hides everything else in the console.
 */
export function warnOnce(key: string, message: string): void {
  if (warned.has(key)) return
  warned.add(key)
  console.warn(`react-three-md2: ${message}`)
}
