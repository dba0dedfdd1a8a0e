import { existsSync } from 'node:fs'

/** Where the browser tests expect Debian's Chromium (npm cannot download a browser here). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export const CHROMIUM_MISSING =
  `Chromium not found at ${CHROMIUM_PATH}. The browser tests drive Debian's Chromium: ` +
  'install it with `apt-get install -y chromium` (or point CHROMIUM_PATH at a Chromium binary).'

/** vitest globalSetup of the browser projects: fail the run, loudly, before any test is skipped. */
export default function requireChromium(): void {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(CHROMIUM_MISSING)
}
