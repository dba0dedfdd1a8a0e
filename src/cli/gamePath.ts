import { MAX_SKIN_NAME_LENGTH } from '../core/format/spec.js'
import { UsageError, type CliIO } from './common.js'

/**
 * The folder a skin is named under in the MD2: Quake II looks skins up by path from its game folder
 * (`models/monsters/fox/fox.pcx`), not beside the model. Given with `--game-path DIR`, or else found in
 * OUT's folder: the part of it from its last `models` or `players` folder on (`…/baseq2/models/monsters/fox`
 * gives `models/monsters/fox`). `--game-path ''` names the skin bare, as without one.
 */
export interface GamePath {
  /** The folder, `/`-separated, no leading or trailing slash; `''` for none. */
  dir: string
  /** Where it came from: the option, or OUT's folder. */
  from: 'option' | 'output'
}

/** The skin name stored: `dir/name`, or `name` alone without a game path. */
export function skinNameIn(gamePath: GamePath | undefined, name: string): string {
  return gamePath && gamePath.dir !== '' ? `${gamePath.dir}/${name}` : name
}

/**
 * `--game-path DIR` checked, or the game path OUT's folder gives (undefined when none). A value MD2's skin
 * name cannot hold or Quake II cannot look up (a leading slash, `..`, a backslash, not ASCII, past 63 bytes
 * with `skinFile`) is a usage error naming the option and the value.
 */
export function gamePathOf(given: string | undefined, output: string, skinFile: string, io: CliIO): GamePath | undefined {
  if (given === undefined) {
    const folders = io.resolve(output).split(/[/\\]/).slice(0, -1)
    let at = -1
    folders.forEach((folder, i) => {
      if (/^(models|players)$/i.test(folder)) at = i
    })
    if (at < 0) return undefined
    const dir = folders.slice(at).join('/')
    // A folder MD2 cannot name is left out rather than refused: OUT was not asked to be a game path.
    if (!/^[\x21-\x7e]+$/.test(dir.replace(/ /g, '_')) || `${dir}/${skinFile}`.length > MAX_SKIN_NAME_LENGTH) return undefined
    return { dir, from: 'output' }
  }
  const dir = given.replace(/\/+$/, '')
  const bad = (why: string): never => {
    throw new UsageError(`--game-path ${JSON.stringify(given)}: ${why}`)
  }
  if (dir === '') return { dir: '', from: 'option' }
  if (!/^[\x20-\x7e]*$/.test(dir)) bad('not ASCII; MD2 stores skin names as bytes, one a character')
  if (dir.includes('\\')) bad('use forward slashes (models/monsters/fox)')
  if (dir.startsWith('/') || /^[A-Za-z]:/.test(dir)) bad('a folder of the game directory is relative: no leading slash or drive')
  const segments = dir.split('/')
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..'))
    bad('each folder a name: no "..", "." or empty folder')
  const name = `${dir}/${skinFile}`
  if (name.length > MAX_SKIN_NAME_LENGTH) bad(`the skin name "${name}" would be ${name.length} bytes, past MD2's ${MAX_SKIN_NAME_LENGTH}`)
  return { dir, from: 'option' }
}
