import { parseMD2 } from '../core/format/parseMD2.js'
import { readGLB, type GLBContents } from '../core/gltf/glb.js'
import { glbSize, writeGLB } from '../core/gltf/writeGLB.js'
import type { DecodedImage } from '../core/images/decodedImage.js'
import { isMD2Error, MD2Error } from '../core/MD2Error.js'
import { printable } from '../core/printable.js'
import { folderOf as skinFolderOf, skinCandidates } from '../core/images/skinPaths.js'
import { fileInside, folderOf, progress, readInput, RunBudget, type CliIO, type Parsed } from './common.js'
import { MAX_INPUT_BYTES, readSkin } from './readInputs.js'
import type { OutputFile } from './writeOutputs.js'

/** `.md2` → `.glb`/`.gltf`: a mesh with a morph target per keyframe, a clip per animation, the skin embedded. */
export function md2ToGLTF(
  input: string,
  output: string,
  to: 'glb' | 'gltf',
  parsed: Parsed,
  io: CliIO,
  budget = new RunBudget(),
): { files: OutputFile[]; summary: string } {
  const model = parseMD2(readInput(input, io, { maxBytes: MAX_INPUT_BYTES }), { name: input })
  for (const warning of model.warnings) io.stderr(`${input}: warning: ${printable(warning)}\n`)
  const skin = parsed.skin !== undefined ? { path: parsed.skin, image: readSkin(parsed.skin, io) } : findSkin(input, model.skins, io)
  checkOutputSize(input, output, to, glbSize(model, { skin: skin?.image }), model.header.numFrames, budget)
  if (model.header.numFrames > 50) progress(io, `${input}: writing ${model.header.numFrames} keyframes…`)
  const glb = writeGLB(model, { skin: skin?.image })
  const data = to === 'glb' ? glb : embeddedGLTF(readGLB(glb))
  const summary =
    `wrote ${output}: ${data.byteLength} bytes, ${model.header.numFrames} keyframes as morph targets, ` +
    `${model.animations.length} animation${model.animations.length === 1 ? '' : 's'}, ` +
    (skin ? `skin ${skin.image.width}×${skin.image.height} from ${skin.path}` : 'no skin')
  return { files: [{ path: output, data }], summary }
}

/**
 * How much memory the writing takes at its peak, counted against the run's budget before any of it is
 * allocated: the binary chunk three times over (its parts, the chunk, the packed .glb), and for .gltf its
 * base64 text and JSON too. A .glb's length is a 32-bit number, and JavaScript holds a string of at most
 * 2²⁹ − 24 characters: a model past either cannot be written at all, whatever the budget.
 */
function checkOutputSize(
  input: string,
  output: string,
  to: 'glb' | 'gltf',
  size: ReturnType<typeof glbSize>,
  frames: number,
  budget: RunBudget,
): void {
  const text = to === 'gltf' ? Math.ceil(size.binBytes / 3) * 4 + (size.totalBytes - size.binBytes) : 0
  const shape = `${frames} keyframe${frames === 1 ? '' : 's'} × ${size.vertices.toLocaleString('en-US')} vertices as morph targets`
  const refuse = (why: string): never => {
    throw new MD2Error('OUT_OF_RANGE', `${output}: ${why}`, { section: 'budget', file: input })
  }
  if (size.totalBytes > 0xffffffff)
    refuse(`${shape} make a .glb of ${size.totalBytes.toLocaleString('en-US')} bytes, past the 4 GiB a .glb can hold`)
  if (text > 2 ** 29 - 24)
    refuse(`${shape} make ${text.toLocaleString('en-US')} characters of .gltf text, past the 512 Mi a JavaScript string holds (write .glb)`)
  budget.charge(size.binBytes * 3 + text * 4, `${output}: a .${to} of ${size.totalBytes.toLocaleString('en-US')} bytes (${shape})`, input)
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
        if (!warned.has(name)) io.stderr(`${input}: warning: ${printable(error.reason.replace(/"[^"]*"/, JSON.stringify(name)))}\n`)
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
