/** The credits of the models an example copies from the repository's assets/: their rows of assets/CREDITS.md. */
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

const assets = resolve(import.meta.dirname, '../../assets')

/** Writes `file`: a CREDITS.md with `note` and the rows of assets/CREDITS.md's model table for `names`, with its header. */
export function writeCredits(file, names, note) {
  const credits = readFileSync(join(assets, 'CREDITS.md'), 'utf8').split('\n')
  const header = credits.findIndex((line) => line.startsWith('| model |'))
  const rows = credits.filter((line) => names.some((name) => line.startsWith(`| ${name} |`)))
  if (header < 0 || rows.length !== names.length) throw new Error('assets/CREDITS.md: the model table or a row is missing')
  writeFileSync(file, ['# Credits', '', note, '', credits[header], credits[header + 1], ...rows, ''].join('\n'))
}
