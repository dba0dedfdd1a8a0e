import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { runnerImport, type Plugin } from 'vite'

type Core = typeof import('../src/core/index')

const QUERY = 'md2-animations'
const CORE = fileURLToPath(new URL('../src/core/index.ts', import.meta.url))

let core: Promise<Core> | undefined
/** The library's own core, loaded through vite (it is TypeScript with extensionless imports). */
function loadCore(): Promise<Core> {
  core ??= runnerImport<Core>(CORE, { configFile: false, logLevel: 'error' }).then((result) => result.module)
  return core
}

/**
 * `import animations, { frameCount, skins } from './tris.md2?md2-animations'` runs our own
 * `parseMD2` on the file at build time and exports what it found: the model's animation list (for
 * select controls), its frame count (for the frame scrubber) and the skin names written in it. The
 * lists come from the file, never from a hand-typed table.
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
          `export const warnings = ${JSON.stringify(model.warnings)};`,
          `export default animations;`,
        ].join('\n')
      },
    },
  }
}
