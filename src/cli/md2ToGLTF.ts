import { parseMD2 } from '../core/format/parseMD2.js'
import { readGLB, type GLBContents } from '../core/gltf/glb.js'
import { writeGLB } from '../core/gltf/writeGLB.js'
import type { DecodedImage } from '../core/images/decodedImage.js'
import { isMD2Error } from '../core/MD2Error.js'
import { folderOf as skinFolderOf, skinCandidates } from '../core/images/skinPaths.js'
import { folderOf, readInput, type CliIO, type Parsed } from './common.js'
import { fileInside, MAX_INPUT_BYTES, readSkin } from './readInputs.js'
import type { OutputFile } from './writeOutputs.js'

/** `.md2` → `.glb`/`.gltf`: a mesh with a morph target per keyframe, a clip per animation, the skin embedded. */
export function md2ToGLTF(
  input: string,
  output: string,
  to: 'glb' | 'gltf',
  parsed: Parsed,
  io: CliIO,
): { files: OutputFile[]; summary: string } {
  const model = parseMD2(readInput(input, io, { maxBytes: MAX_INPUT_BYTES }), { name: input })
  for (const warning of model.warnings) io.stderr(`${input}: warning: ${warning}\n`)
  const skin = parsed.skin !== undefined ? { path: parsed.skin, image: readSkin(parsed.skin, io) } : findSkin(input, model.skins, io)
  if (model.header.numFrames > 50) io.stderr(`${input}: writing ${model.header.numFrames} keyframes…\n`)
  const glb = writeGLB(model, { skin: skin?.image })
  const data = to === 'glb' ? glb : embeddedGLTF(readGLB(glb))
  const summary =
    `wrote ${output}: ${data.byteLength} bytes, ${model.header.numFrames} keyframes as morph targets, ` +
    `${model.animations.length} animation${model.animations.length === 1 ? '' : 's'}, ` +
    (skin ? `skin ${skin.image.width}×${skin.image.height} from ${skin.path}` : 'no skin')
  return { files: [{ path: output, data }], summary }
}

/**
 * The first of the model's skins found next to it (or at its game path below the model's folder), as archive
 * entries are found: a name leading out of the folder (`..`, a link) is not read, with a warning.
 */
function findSkin(input: string, skins: readonly string[], io: CliIO): { path: string; image: DecodedImage } | undefined {
  const tried: string[] = []
  const folder = skinFolderOf(input)
  const root = folderOf(input) || '.'
  const warned = new Set<string>()
  for (const name of skins) {
    for (const candidate of skinCandidates(input, name)) {
      if (!/\.(pcx|tga|png)$/i.test(candidate) || tried.includes(candidate)) continue
      tried.push(candidate)
      try {
        const path = fileInside(input, candidate.slice(folder.length), root, io, { percent: false, what: 'skin name' })
        if (io.exists(path)) return { path: candidate, image: readSkin(path, io, root) }
      } catch (error) {
        if (!isMD2Error(error) || error.code !== 'UNSAFE_PATH') throw error
        // Once a name: its other spellings lead to the same place.
        if (!warned.has(name)) io.stderr(`${input}: warning: ${error.reason.replace(/"[^"]*"/, JSON.stringify(name))}\n`)
        warned.add(name)
      }
    }
  }
  io.stderr(
    `${input}: no skin found${tried.length > 0 ? ` (looked for ${tried.slice(0, 4).join(', ')}${tried.length > 4 ? ', …' : ''})` : ''}; writing without one (--skin FILE names one)\n`,
  )
  return undefined
}

/** A `.gltf` (JSON) with its one buffer embedded as a data URI. */
function embeddedGLTF({ json, bin }: GLBContents): Uint8Array {
  const buffers = json.buffers as { byteLength: number; uri?: string }[]
  buffers[0]!.uri = `data:application/octet-stream;base64,${toBase64(bin)}`
  return new TextEncoder().encode(JSON.stringify(json, null, 1))
}

function toBase64(bytes: Uint8Array): string {
  let text = ''
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(text)
}
