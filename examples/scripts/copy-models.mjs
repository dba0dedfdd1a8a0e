#!/usr/bin/env node
/**
 * Copies the player folders an example names from the repository's assets/ into the example's
 * public/players/ (the folders Quake II would keep them in), with their authors' readmes and the
 * credits from assets/CREDITS.md:
 *
 *   node ../scripts/copy-models.mjs ogro ratamahatta
 *
 * Run by an example's `npm run build` and `npm run dev` (prebuild/predev), in its folder: public/players/
 * is not committed, so a clone has one copy of each model, in assets/.
 */
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { writeCredits } from './credits.mjs'

const assets = resolve(import.meta.dirname, '../../assets')
// npm runs a package's scripts in its folder: the example's.
const players = join(process.cwd(), 'public/players')

/** Each folder's files as shipped (mixed case): the body, its skin, the weapon and its skin, the readme. */
const FOLDERS = {
  ogro: { from: 'quake2/ogro', files: ['tris.MD2', 'igdosh.pcx', 'weapon.md2', 'weapon.pcx', 'Ogro.txt'] },
  ratamahatta: { from: 'quake2/ratamahatta', files: ['tris.md2', 'Ratamahatta.pcx', 'weapon.MD2', 'weapon.pcx', 'Ratamahatta.txt'] },
}

const names = process.argv.slice(2)
const unknown = names.filter((name) => !Object.hasOwn(FOLDERS, name))
if (names.length === 0 || unknown.length > 0) {
  throw new Error(`name the folders to copy, of ${Object.keys(FOLDERS).join(', ')}${unknown.length ? ` (not ${unknown.join(', ')})` : ''}`)
}
if (!existsSync(join(assets, 'CREDITS.md'))) {
  throw new Error(`no ${join(assets, 'CREDITS.md')}: run this inside a clone of react-three-md2 (the models come from its assets/)`)
}

// Only the folders named: a folder an example stopped using does not linger in its build.
rmSync(players, { recursive: true, force: true })
for (const name of names) {
  const { from, files } = FOLDERS[name]
  mkdirSync(join(players, name), { recursive: true })
  for (const file of files) copyFileSync(join(assets, from, file), join(players, name, file))
}

// The credit lines of the models copied, as assets/CREDITS.md gives them.
writeCredits(
  join(players, 'CREDITS.md'),
  names,
  "Copied from react-three-md2 `assets/` by `examples/scripts/copy-models.mjs`; each folder keeps its author's readme.",
)
console.log(`models: ${names.join(', ')} copied to public/players/ with CREDITS.md`)
