#!/usr/bin/env node
/**
 * Copies the models the arena uses from the repository's assets/ into public/players/ (the folders
 * Quake II would keep them in), with their authors' readmes and the credits from assets/CREDITS.md.
 * Run by `npm run build` and `npm run dev` (prebuild/predev): public/players/ is not committed, so a
 * clone has one copy of each model, in assets/.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

const here = import.meta.dirname
const assets = resolve(here, '../../../assets')
const players = resolve(here, '../public/players')

/** Each folder's files as shipped (mixed case): the body, its skin, the weapon and its skin, the readme. */
const FOLDERS = {
  ogro: { from: 'quake2/ogro', files: ['tris.MD2', 'igdosh.pcx', 'weapon.md2', 'weapon.pcx', 'Ogro.txt'] },
  ratamahatta: { from: 'quake2/ratamahatta', files: ['tris.md2', 'Ratamahatta.pcx', 'weapon.MD2', 'weapon.pcx', 'Ratamahatta.txt'] },
}

if (!existsSync(join(assets, 'CREDITS.md'))) {
  throw new Error(`no ${join(assets, 'CREDITS.md')}: run this inside a clone of react-three-md2 (the models come from its assets/)`)
}

for (const [name, { from, files }] of Object.entries(FOLDERS)) {
  mkdirSync(join(players, name), { recursive: true })
  for (const file of files) copyFileSync(join(assets, from, file), join(players, name, file))
}

// The credit lines of the two models, as assets/CREDITS.md gives them (its table rows), with its header.
const credits = readFileSync(join(assets, 'CREDITS.md'), 'utf8').split('\n')
const header = credits.findIndex((line) => line.startsWith('| model |'))
const rows = credits.filter((line) => Object.keys(FOLDERS).some((name) => line.startsWith(`| ${name} |`)))
if (header < 0 || rows.length !== Object.keys(FOLDERS).length) throw new Error('assets/CREDITS.md: the model table or a row is missing')
writeFileSync(
  join(players, 'CREDITS.md'),
  [
    '# Credits',
    '',
    "Copied from react-three-md2 `assets/` by `scripts/copy-models.mjs`; each folder keeps its author's readme.",
    '',
    credits[header],
    credits[header + 1],
    ...rows,
    '',
  ].join('\n'),
)
console.log(`models: ${Object.keys(FOLDERS).join(', ')} copied to public/players/ with CREDITS.md`)
