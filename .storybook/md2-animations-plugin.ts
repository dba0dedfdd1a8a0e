import { readFileSync, readdirSync } from 'node:fs'
import { basename, dirname, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runnerImport, type Plugin } from 'vite'

type Core = typeof import('../src/core/index')

const QUERY = 'md2-animations'
const CORE = fileURLToPath(new URL('../src/core/index.ts', import.meta.url))
const ASSETS = fileURLToPath(new URL('../assets', import.meta.url))
/** Image files a model folder may hold as skins. */
const SKIN_FILE = /\.(pcx|tga|png|jpe?g)$/i

/**
 * The skins in a model's folder, as `{ label: url }` (served under /models): every image but HUD icons
 * (`*_i.pcx`) and weapon skins (`weapon.pcx`, `w_*`, the `g_*` pickups, `a_*`), the body's own first.
 */
function folderSkins(file: string, named: readonly string[]): Record<string, string> {
  const folder = dirname(file)
  const isWeapon = /^(weapon|w_|g_|a_)/i.test(basename(file))
  const names = readdirSync(folder)
    .filter((name) => SKIN_FILE.test(name) && !/_i\.[a-z]+$/i.test(name))
    .filter((name) => (isWeapon ? /^(weapon|w_|g_)/i.test(name) : !/^(weapon|w_|g_|a_)/i.test(name)))
  const namedFiles = named.map((skin) => basename(skin.replace(/\\/g, '/')).toLowerCase())
  names.sort((a, b) => Number(namedFiles.includes(b.toLowerCase())) - Number(namedFiles.includes(a.toLowerCase())) || a.localeCompare(b))
  const url = (name: string) => `/models/${relative(ASSETS, folder).split('\\').join('/')}/${name}`
  return Object.fromEntries(names.map((name) => [name.replace(SKIN_FILE, ''), url(name)]))
}

let core: Promise<Core> | undefined
/** The library's own core, loaded through vite (it is TypeScript with extensionless imports). */
function loadCore(): Promise<Core> {
  core ??= runnerImport<Core>(CORE, { configFile: false, logLevel: 'error' }).then((result) => result.module)
  return core
}

/**
 * `import animations, { frameCount, skins, folderSkins } from './tris.md2?md2-animations'` runs our own
 * `parseMD2` on the file at build time and exports what it found: the model's animation list (for
 * select controls), its frame count (for the frame scrubber), the skin names written in it and the
 * skin images beside it (for skin selects) and the folder's file names (`<MD2Player files>`). The lists come from the files, never from a hand-typed table.
 */
export function md2AnimationsPlugin(): Plugin {
  return {
    name: 'react-three-md2:md2-animations',
    enforce: 'pre',
    load: {
      filter: { id: /[?&]md2-animations(?:&|=|$)/ },
      async handler(id) {
        const [file, query = ''] = id.split('?', 2)
        if (file === undefined || !new URLSearchParams(query).has(QUERY)) return null
        this.addWatchFile(file)
        const { parseMD2 } = await loadCore()
        const model = parseMD2(readFileSync(file), { name: file })
        const animations = model.animations.map(({ name, start, end, fps, source }) => ({ name, start, end, fps, source }))
        return [
          `export const animations = ${JSON.stringify(animations)};`,
          `export const animationNames = animations.map((animation) => animation.name);`,
          `export const frameCount = ${model.frames.length};`,
          `export const skins = ${JSON.stringify(model.skins)};`,
          `export const folderSkins = ${JSON.stringify(folderSkins(file, model.skins))};`,
          `export const folderFiles = ${JSON.stringify(readdirSync(dirname(file)).sort())};`,
          `export const warnings = ${JSON.stringify(model.warnings)};`,
          `export default animations;`,
        ].join('\n')
      },
    },
  }
}
