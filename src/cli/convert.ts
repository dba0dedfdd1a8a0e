import { isMD2Error } from '../core/MD2Error.js'
import { MAX_SKIN_NAME_LENGTH } from '../core/format/spec.js'
import { printable } from '../core/printable.js'
import { bakeSettings, bakeSideFiles, bakeToMD2, staleTable, type GLTFInput } from './bakeToMD2.js'
import { checkGLTF } from './checkGLTF.js'
import {
  CliFailure,
  EXIT_FAILED,
  EXIT_OK,
  RunBudget,
  UsageError,
  describeError,
  parseMaxBytes,
  readInput,
  type CliIO,
  type Parsed,
} from './common.js'
import { checkHunk, checkSkinSize, gamePathOf, parseSkinSize, type HunkFit } from './fitEngine.js'
import { md2ToGLTF } from './md2ToGLTF.js'
import { meshToMD2 } from './meshToMD2.js'
import { decodeMeshopt, gltfContents, MAX_INPUT_BYTES, readInputOnce } from './readInputs.js'
import { checkOutputs, ReadLog, writeOutputs, type OutputFile } from './writeOutputs.js'

export const CONVERT_USAGE = `Usage: react-three-md2 convert IN [ANIMATION...] OUT [options]

The formats come from the extensions:
  .md2 → .glb or .gltf   a mesh with a morph target per keyframe, a clip per animation and the skin
                         embedded as PNG (the model's first skin found next to it, or --skin)
  .glb, .gltf → .md2     a skinned or animated scene, or several meshes: baked to keyframes (every
                         visible mesh merged, each clip sampled from its start to its end, frames
                         named after it: run01, run02, …), the base-colour texture written as the
                         skin beside OUT (OUT.pcx by default), fitted to Quake II;
                         one mesh with morph targets and no skin: its morph targets become the frames
                         (the base mesh alone when it has none), clips that step through them the
                         animations
  .obj → .md2            one frame

Several inputs, one model: convert body.glb idle.glb walk.glb run.glb OUT.md2
  The first input gives the mesh and the skin; every input's clips are baked onto its skeleton,
  matched by bone name (Mixamo's downloads "with skin" and "without skin" both work). A file whose
  one clip is all it holds gives the animation its file's name (idle, walk, run), as does a clip
  with Mixamo's generic name (Armature|mixamo.com|Layer0).

Options:
  --skin FILE            the skin to embed (.pcx, .tga or .png), instead of the model's own; for .md2
                         output from a baked glTF, the skin to write instead of its texture
  --skin-size WxH        for .md2 output: the size the skin image is written at and the texture
                         coordinates are measured in (default: the texture resampled to the size Quake
                         II draws as written: each side a power of two up to 256, rounded up below it);
                         a size Quake II does not load or draws smaller is refused, with one that fits
  --no-engine-limits     write a --skin-size Quake II does not load anyway (other engines may), a model
                         past the 2 MiB Quake II loads a model into, and a mesh taken as it is (an OBJ,
                         a morphed glTF) past its vertex, triangle or frame limits
  --simplify [TRIANGLES] reduce the merged mesh (meshoptimizer, over the bind pose: UV seams and the
                         silhouette kept) to fit MD2's 2,048 vertices and 4,096 triangles, or to at
                         most TRIANGLES
  --fps N                keyframes per second a clip is sampled at (default 10, Quake II's rate;
                         another rate is written in OUT.anm, as UFO:AI keeps animation tables)
  --clips A,B            bake these clips only, in this order (default: all); a clip is named as
                         written, by its name after Blender's | (Armature|Run is Run), or by its index
                         (0, 1…; a glTF animation may have no name); NAME=CLIP renames one (run=0)
  --mesh NAME            bake this mesh (or the meshes under this node) only; repeat for more
  --scale S              multiply positions (Quake II's players stand about 56 units tall)
  --height H             scale the first frame (a player's stand01) to H units tall, proportions
                         kept (default with --player: 56, Quake II's player box; not with --scale)
  --origin X,Y,Z         where the model stands, MD2's axes (x forward, y left, z up): the first
                         frame's feet (its lowest point) at height Z, the scene's origin at X,Y
                         (default with --player: 0,0,-24, the game's player box; else as the scene)
  --skin-format FORMAT   pcx (default: 8-bit in Quake II's palette, each colour its nearest as the eye
                         sees it, CIEDE2000), tga (full colour, for GL engines) or png
  --dither               a pcx skin's gradients dithered (Floyd–Steinberg) rather than banded
  --player               write a Quake II player: OUT is players/NAME/tris.md2, baked to the engine's
                         198-frame player table (each animation its clip resampled to the table's frame
                         count; one without a clip taken from its nearest, and said), with its skin
                         NAME.pcx and HUD icon NAME_i.pcx beside it, and weapon.md2 (the client
                         refuses a player without one: --weapon's meshes, else a stand-in hidden in the
                         body). Placed in the game's player box: stand01 56 tall, its feet at z -24
                         (--scale, --height, --origin change it). Clips are matched by name as a person
                         would (Idle before Idle_Gun_Pointing; Shoot before Punch; Run_swordAttack
                         only where nothing closer) or given: --clips stand=Idle,run=Walk,death1=0.
                         A stand made of another clip is its first pose; without a death clip the
                         deaths are the stand falling to the floor (each stand-in said)
  --weapon A,B           with --player: these meshes (by name, or a node's above them) baked apart on the
                         player's frames into weapon.md2 (and weapon.pcx), the weapon Quake II draws in the
                         player's hand when the folder has no w_<weapon>.md2; the body without them
  --game-path DIR        the folder of Quake II's game directory the skin is named under in the model
                         (models/monsters/fox: the MD2 names models/monsters/fox/fox.pcx; the file is
                         still written beside OUT). Default: OUT's folder from its last models or players
                         folder on, when it has one (…/baseq2/models/monsters/fox), said in the summary;
                         --game-path '' names the skin alone. Relative, forward slashes, ASCII, no ..;
                         with the skin's name at most 63 bytes
  --resources DIR        the folder a glTF's buffer and image URIs are read from (default: its own);
                         a URI leading outside it (.., an absolute path, file:, http:) is refused,
                         never read or fetched
  --max-bytes N          the budget of one run (default 1G): every file a URI names (each read once), the
                         textures decoded (from their headers) and the output (from the model's counts);
                         past it, refused before anything is read or allocated (OUT_OF_RANGE). N in bytes,
                         or with K, M or G
  --force                overwrite existing side files (OUT.pcx, OUT.tga, OUT.png, OUT.anm); never an
                         input: an output that is a file the run reads is refused
  -h, --help             show this help

A model must fit MD2 as Quake II loads it: at most 2,048 vertices, 4,096 triangles and 512 frames;
past one, convert says every limit passed and by how much (--simplify fits the mesh, a lower --fps
the frames). A mesh taken as it is is refused past them too, unless --no-engine-limits. A model
whose file passes 2 MiB (the hunk Quake II loads it into; past it the game quits) is refused before
anything is written, naming a lower --fps, --clips or --simplify that fits. Anything
written that an unmodified Quake II would not load (with --no-engine-limits, or a .png skin) is
named on one line, with the option that fits it. A clip name cut to fit MD2's 16-byte frame names, and a
texture the model leaves out (a second base-colour map, one not decoded, any on a mesh taken as it
is), are each said on one line. Outputs are written only when
all of them are complete; nothing is written on a refusal (exit 1). Images are decoded up to
4096×4096 pixels; in Node a JPEG texture cannot be decoded: the skin is then left out with a note
(--skin FILE gives one).
`

type Kind = 'md2' | 'glb' | 'gltf' | 'obj'

function kindOf(path: string): Kind | undefined {
  const match = /\.(md2|glb|gltf|obj)$/i.exec(path)
  return match ? (match[1]!.toLowerCase() as Kind) : undefined
}

/** The command line's files as inputs and OUT, checked before anything is read. */
function filesOf(parsed: Parsed): { inputs: string[]; output: string; from: Kind; to: Kind } {
  if (parsed.files.length < 2) throw new UsageError('convert needs IN and OUT')
  const inputs = parsed.files.slice(0, -1)
  const output = parsed.files[parsed.files.length - 1]!
  const from = kindOf(inputs[0]!)
  const to = kindOf(output)
  if (!from) throw new UsageError(`${inputs[0]}: convert reads .md2, .glb, .gltf or .obj`)
  if (!to) throw new UsageError(`${output}: convert writes .md2, .glb or .gltf`)
  if (from === 'md2' ? to === 'md2' || to === 'obj' : to !== 'md2')
    throw new UsageError(`convert turns .md2 into .glb/.gltf, or .glb/.gltf/.obj into .md2; not .${from} into .${to}`)
  if (inputs.length > 1) {
    const other = inputs.slice(1).find((path) => kindOf(path) !== 'glb' && kindOf(path) !== 'gltf')
    if (from !== 'glb' && from !== 'gltf')
      throw new UsageError('several inputs: the first must be a .glb or .gltf, baked with every input\u2019s clips')
    if (other !== undefined) throw new UsageError(`${other}: further inputs are .glb or .gltf files whose clips are baked`)
  }
  return { inputs, output, from, to }
}

/** Reads a glTF input (.glb or .gltf) with the buffers and images it names, meshopt views decoded. */
async function readGLTF(path: string, io: CliIO, resources: string | undefined, budget: RunBudget): Promise<GLTFInput> {
  const bytes = readInputOnce(path, io, budget)
  const contents = await decodeMeshopt(path, gltfContents(path, bytes, io, resources, budget))
  checkGLTF(contents.json, contents.bin.length, path)
  return { path, contents }
}

/**
 * A skin name MD2 stores as bytes, one a character, in a 64-byte C string: only ASCII reads back as the name
 * of the file written, and only 63 bytes of it. Refused naming OUT, whose name it is, before any work.
 */
function checkSkinName(output: string, skin: string): void {
  const name = skin.replace(/^.*[/\\]/, '')
  if (!/^[\x20-\x7e]*$/.test(name))
    throw new CliFailure(
      `${output}: cannot name the skin "${name}" in the model: MD2 stores skin names as bytes, one a character, and ` +
        'this name is not ASCII, so the name stored would not be the file’s; nothing written (give OUT an ASCII name)',
    )
  if (name.length > MAX_SKIN_NAME_LENGTH)
    throw new CliFailure(
      `${output}: cannot name the skin "${name}" in the model: ${name.length} bytes, past MD2's ${MAX_SKIN_NAME_LENGTH}; ` +
        'nothing written (give OUT a shorter name)',
    )
}

/**
 * Baked rather than read as morph targets: several inputs, a skin, node animation, several meshes, a mesh
 * without texture coordinates (the bake gives it a skin of its material and vertex colours), or a bake option
 * given. A single morphed mesh whose clips step through its targets keeps its frames as they are.
 */
function needsBaking(json: Record<string, unknown>, parsed: Parsed, inputs: number): boolean {
  if (inputs > 1) return true
  if (parsed.fps !== undefined || parsed.clips !== undefined || parsed.meshes.length > 0 || parsed.scale !== undefined) return true
  if (parsed.height !== undefined || parsed.origin !== undefined) return true
  if (parsed.skinFormat !== undefined || parsed.simplify !== undefined || parsed.gamePath !== undefined || parsed.dither || parsed.player)
    return true
  if ((Array.isArray(json.skins) ? json.skins : []).length > 0) return true
  const nodes = Array.isArray(json.nodes) ? (json.nodes as { mesh?: number }[]) : []
  if (nodes.filter((node) => node?.mesh !== undefined).length > 1) return true
  type Mesh = { primitives?: { attributes?: Record<string, unknown> }[] }
  const meshes = Array.isArray(json.meshes) ? (json.meshes as Mesh[]) : []
  if (meshes.some((mesh) => (Array.isArray(mesh?.primitives) ? mesh.primitives : []).some((p) => p?.attributes?.TEXCOORD_0 === undefined)))
    return true
  type Animation = { channels?: { target?: { path?: string } }[] }
  return (Array.isArray(json.animations) ? (json.animations as Animation[]) : []).some((animation) =>
    (Array.isArray(animation?.channels) ? animation.channels : []).some((channel) => channel?.target?.path !== 'weights'),
  )
}

export async function convert(parsed: Parsed, given: CliIO): Promise<number> {
  if (parsed.help) {
    given.stdout(CONVERT_USAGE)
    return EXIT_OK
  }
  const { inputs, output, from, to } = filesOf(parsed)
  // Every file read goes through the log, so that no output is one of them.
  const read = new ReadLog(given)
  const io = read.io
  io.progress ??= given.progress
  // One budget for everything the run reads and allocates (readInputs.ts, md2ToGLTF.ts).
  const budget = new RunBudget(parseMaxBytes(parsed.maxBytes))
  for (const path of [...inputs, ...(parsed.skin !== undefined ? [parsed.skin] : [])]) read.add(path)
  const input = inputs[0]!
  const skinSize = parsed.skinSize !== undefined ? parseSkinSize(parsed.skinSize) : undefined
  const bakeOnly = [
    '--fps',
    '--clips',
    '--mesh',
    '--scale',
    '--height',
    '--origin',
    '--skin-format',
    '--simplify',
    '--game-path',
    '--dither',
    '--player',
    '--weapon',
  ].filter(
    (_, i) =>
      [
        parsed.fps,
        parsed.clips,
        parsed.meshes[0],
        parsed.scale,
        parsed.height,
        parsed.origin,
        parsed.skinFormat,
        parsed.simplify,
        parsed.gamePath,
        parsed.dither || undefined,
        parsed.player || undefined,
        parsed.weapon,
      ][i] !== undefined,
  )
  if (to !== 'md2') {
    const md2Only = ['--skin-size', '--no-engine-limits'].filter(
      (_, i) => [parsed.skinSize, parsed.noEngineLimits || undefined][i] !== undefined,
    )
    if (md2Only.length > 0) throw new UsageError(`${md2Only.join(', ')}: for .md2 output only`)
  }
  if (from === 'md2' || from === 'obj') {
    if (bakeOnly.length > 0) throw new UsageError(`${bakeOnly.join(', ')}: for glTF scenes baked to .md2 only`)
    if (parsed.resources !== undefined) throw new UsageError('--resources: for .gltf inputs only')
  }
  if (parsed.resources !== undefined && !io.isDirectory(parsed.resources))
    throw new UsageError(`--resources ${parsed.resources}: ${io.exists(parsed.resources) ? 'not a folder' : 'no such folder'}`)
  // A bake's options (a player's name, from OUT's resolved folder, among them) checked before anything is read.
  const baking = from === 'glb' || from === 'gltf' ? bakeSettings(parsed, skinSize, output, io.resolve(output)) : undefined
  try {
    let result: { files: OutputFile[]; summary: string; warnings?: string[] }
    let hunkFit: HunkFit = { fps: undefined, baked: false }
    if (from === 'md2') {
      checkOutputs(output, [], parsed.force, read)
      result = md2ToGLTF(input, output, to as 'glb' | 'gltf', parsed, io, budget)
    } else if (from === 'obj') {
      checkOutputs(output, [], parsed.force, read)
      if (skinSize) checkSkinSize(skinSize, 'pcx', parsed.noEngineLimits)
      const obj = readInput(input, io, { maxBytes: MAX_INPUT_BYTES })
      result = await meshToMD2(input, { obj }, output, { skinSize, noEngineLimits: parsed.noEngineLimits }, io)
    } else {
      const first = await readGLTF(input, io, parsed.resources, budget)
      if (!needsBaking(first.contents.json, parsed, inputs.length)) {
        if (bakeOnly.length > 0) throw new UsageError(`${bakeOnly.join(', ')}: for glTF scenes baked to .md2 only`)
        checkOutputs(output, [], parsed.force, read)
        if (skinSize) checkSkinSize(skinSize, 'pcx', parsed.noEngineLimits)
        result = await meshToMD2(input, { gltf: first.contents }, output, { skinSize, noEngineLimits: parsed.noEngineLimits }, io)
      } else {
        const settings = baking!
        const side = bakeSideFiles(output, settings)
        const sideFiles = [side.skin, side.table, side.icon, side.weapon?.model, side.weapon?.skin].filter((file) => file !== undefined)
        checkOutputs(output, sideFiles, parsed.force, read)
        checkSkinName(output, side.skin)
        const gamePath = gamePathOf(parsed.gamePath, output, side.skin.replace(/^.*[/\\]/, ''), io)
        if (skinSize) checkSkinSize(skinSize, settings.format, parsed.noEngineLimits)
        const all = [first]
        for (const path of inputs.slice(1)) all.push(await readGLTF(path, io, parsed.resources, budget))
        result = await bakeToMD2(all, output, { ...settings, gamePath }, parsed, io, budget)
        hunkFit = { fps: settings.player ? undefined : (settings.fps ?? 10), baked: true }
      }
    }
    // The 2 MiB hunk Quake II loads a model into, checked on the files as they would be written.
    if (to === 'md2') result.warnings = [...(result.warnings ?? []), ...checkHunk(result.files, hunkFit, parsed.noEngineLimits)]
    // An earlier run's table is a file it wrote, never a link: one there is neither read (it may lead anywhere) nor removed.
    const tables: CliIO = { ...given, exists: (path) => given.entryAt(path) === 'file' }
    writeOutputs(result.files, read, { stale: to === 'md2' ? staleTable(output, result.files, tables) : [], force: parsed.force })
    io.stdout(`${result.summary}\n`)
    for (const warning of result.warnings ?? []) io.stderr(`${output}: warning: ${printable(warning)}\n`)
    return EXIT_OK
  } catch (error) {
    // One line each, whatever names from a file they quote.
    if (error instanceof CliFailure) io.stderr(`${printable(error.message)}\n`)
    else if (isMD2Error(error)) io.stderr(`${printable(error.file ?? input)}: ${describeError(error)}\n`)
    else throw error
    return EXIT_FAILED
  }
}
