#!/usr/bin/env node
/**
 * Lays out the models of three.js's MD2 example pages as those pages ask for them, from the repository's
 * assets/, into the example's public/ (examples/three-md2: `npm run models`, before `dev` and `build`):
 *
 *   public/models/md2/ratamahatta/ratamahatta.md2, weapon.md2, w_*.md2 and skins/*.png
 *   public/models/md2/ogro/ogro.md2, weapon.md2 and skins/*.png, *.jpg
 *   public/textures/terrain/grasslight-big.jpg
 *
 * The skins are the PNG/JPEG conversions three.js ships (assets/quake2/<model>/png/); Ratamahatta's own
 * w_*.md2 are not in assets/, so the Perforated Knight's standard Quake II weapon models stand in. Three's
 * grass texture is not here either: a generated green tile (a PNG; browsers tell images by their bytes) stands
 * in for it. public/models and public/textures are not committed: a clone keeps one copy of each model.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { writeCredits } from './credits.mjs'
import { deflateSync } from 'node:zlib'

const assets = resolve(import.meta.dirname, '../../assets')
// npm runs a package's scripts in its folder: the example's.
const publicDir = join(process.cwd(), 'public')
if (!existsSync(join(assets, 'CREDITS.md'))) {
  throw new Error(`no ${join(assets, 'CREDITS.md')}: run this inside a clone of react-three-md2 (the models come from its assets/)`)
}

const WEAPONS = ['bfg', 'blaster', 'chaingun', 'glauncher', 'hyperblaster', 'machinegun', 'railgun', 'rlauncher', 'shotgun', 'sshotgun']
const MODELS = {
  ratamahatta: {
    files: [
      ['quake2/ratamahatta/tris.md2', 'ratamahatta.md2'],
      ['quake2/ratamahatta/weapon.MD2', 'weapon.md2'],
      ...WEAPONS.map((w) => [`quake2/pknight/w_${w}.md2`, `w_${w}.md2`]),
    ],
    skins: 'quake2/ratamahatta/png',
  },
  ogro: {
    files: [
      ['quake2/ogro/tris.MD2', 'ogro.md2'],
      ['quake2/ogro/weapon.md2', 'weapon.md2'],
    ],
    skins: 'quake2/ogro/png',
  },
}

for (const dir of ['models', 'textures']) rmSync(join(publicDir, dir), { recursive: true, force: true })
for (const [name, { files, skins }] of Object.entries(MODELS)) {
  const folder = join(publicDir, 'models/md2', name)
  mkdirSync(join(folder, 'skins'), { recursive: true })
  for (const [from, to] of files) copyFileSync(join(assets, from), join(folder, to))
  for (const skin of readdirSync(join(assets, skins))) copyFileSync(join(assets, skins, skin), join(folder, 'skins', skin))
}

mkdirSync(join(publicDir, 'textures/terrain'), { recursive: true })
writeFileSync(join(publicDir, 'textures/terrain/grasslight-big.jpg'), grassTile(64))

// The credit lines of the models copied, as assets/CREDITS.md gives them.
writeCredits(
  join(publicDir, 'models/CREDITS.md'),
  ['ogro', 'ratamahatta', 'pknight'],
  'Copied from react-three-md2 `assets/` by `examples/scripts/copy-three-models.mjs` (pknight: the weapon models).',
)
console.log('models: ratamahatta and ogro laid out as three.js examples load them, in public/models/md2/')

/** A size × size PNG of speckled greens. */
function grassTile(size) {
  const raw = Buffer.alloc((size * 3 + 1) * size)
  let seed = 7
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff
      const shade = (seed >> 16) % 48
      raw.set([40 + shade, 110 + shade, 30 + (shade >> 1)], y * (size * 3 + 1) + 1 + x * 3)
    }
  }
  const chunk = (type, data) => {
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(body))
    return Buffer.concat([length, body, crc])
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(size, 0)
  ihdr.writeUInt32BE(size, 4)
  ihdr.set([8, 2, 0, 0, 0], 8)
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

function crc32(bytes) {
  let crc = 0xffffffff
  for (const byte of bytes) {
    crc ^= byte
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1
  }
  return (crc ^ 0xffffffff) >>> 0
}
