/**
 * Links planted where a command will write (a cloned repository or an unpacked archive may hold them), aimed at a
 * victim outside the folder written to; and the check that the command left both alone.
 */
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync } from 'node:fs'
import { dirname } from 'node:path'
import { expect } from 'vitest'

/** A link at `at` (its folder made) to `victim`, which may not exist: a write through it would make it. */
export function plantLink(at: string, victim: string): string {
  mkdirSync(dirname(at), { recursive: true })
  symlinkSync(victim, at)
  return victim
}

/**
 * The link at `at` is still there, still a link to `victim`, and `victim` is as it was: absent (the link was
 * dangling), or holding `content`.
 */
export function expectLinkUntouched(at: string, victim: string, content?: string, label = at): void {
  expect(lstatSync(at).isSymbolicLink(), label).toBe(true)
  expect(readlinkSync(at), label).toBe(victim)
  if (content === undefined) expect(existsSync(victim), `${label}: ${victim} made through the link`).toBe(false)
  else expect(readFileSync(victim, 'utf8'), label).toBe(content)
}
