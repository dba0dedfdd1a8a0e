import { warnOnce } from '../../core/warnOnce.js'

/** Milliseconds a load may take before it fails with `LOAD_FAILED` (`Infinity`: no limit). */
let loadTimeout = 30_000

/**
 * Sets how long loads started from now on may take (models, skins, tag files, archives) before they
 * fail with `LOAD_FAILED` and leave the cache: milliseconds, `Infinity` for no limit. Default 30 s.
 */
export function setLoadTimeout(ms: number): void {
  loadTimeout = checkedTimeout(ms, 'setLoadTimeout(ms)') ?? loadTimeout
}

/** The timeout loads get when none is given. */
export function getLoadTimeout(): number {
  return loadTimeout
}

/** A timeout in ms from a prop or an argument: a positive number or `Infinity`, else a warning and `undefined`. */
export function checkedTimeout(ms: number | undefined, what: string): number | undefined {
  if (ms === undefined) return undefined
  if (typeof ms === 'number' && ms > 0) return ms
  warnOnce(
    `timeout:${what}:${String(ms)}`,
    `${what}: ${String(ms)} is not a timeout (a positive number of milliseconds or Infinity); using ${loadTimeout} ms`,
  )
  return undefined
}
