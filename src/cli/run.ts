import { isMD2Error } from '../core/MD2Error.js'
import { parseMD2 } from '../core/format/parseMD2.js'
import type { MD2ModelData } from '../core/format/types.js'
import { writeMD2 } from '../core/format/writeMD2.js'
import { printable, terminalSafe } from '../core/printable.js'
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, UsageError, describeError, describeFileError, type CliIO, type Parsed } from './common.js'
import { convert } from './convert.js'
import { formatInspectReport, inspectReport } from './inspect.js'
import { pak } from './pak.js'
import { samples } from './samples.js'
import { writeFailure, writeFiles } from './writeOutputs.js'

export { EXIT_FAILED, EXIT_OK, EXIT_USAGE, describeError, type CliIO } from './common.js'

export const USAGE = `Usage: react-three-md2 <command> [options]

Commands:
  inspect FILE [--json]    header, sections (offsets and sizes), animations, skins, warnings
  validate FILE...         one line per file: OK, or why it is refused (exit 1 if any is)
  rebuild FILE -o OUT      rewrite in Quake II's qdata layout with rebuilt GL commands
  convert IN [ANIM...] OUT .md2 → .glb/.gltf (morph targets, clips, skin); .glb/.gltf/.obj → .md2
                           (skinned and animated glTF baked to keyframes with every input's clips,
                           the skin fitted to Quake II and written beside; --simplify fits the mesh)
  pak list ARCHIVE         the files in a .pak, .pk3 or .zip
  pak extract ARCHIVE DIR  every file under DIR (never outside it; --force overwrites)
  pak add ARCHIVE FILE...  add files (creates the archive; .pak: PACK, .pk3/.zip: zip)
  samples DIR              write the sample models shipped in this package (the Ogro, a player;
                           UFO:AI's blood spider) under DIR, with their credits

  react-three-md2 <command> --help shows a command's options.

Options:
  -h, --help               show this help
`

function parseArguments(argv: readonly string[]): Parsed {
  const parsed: Parsed = {
    command: undefined,
    files: [],
    json: false,
    output: undefined,
    help: false,
    force: false,
    store: false,
    skin: undefined,
    skinSize: undefined,
    fps: undefined,
    clips: undefined,
    meshes: [],
    scale: undefined,
    height: undefined,
    origin: undefined,
    skinFormat: undefined,
    dither: false,
    player: false,
    weapon: undefined,
    simplify: undefined,
    resources: undefined,
    noEngineLimits: false,
    gamePath: undefined,
    only: undefined,
    maxBytes: undefined,
  }
  const value = (arg: string, i: number): string => {
    const given = argv[i]
    if (given === undefined) throw new UsageError(`${arg} needs a value`)
    return given
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '-h' || arg === '--help') parsed.help = true
    else if (arg === '--json') parsed.json = true
    else if (arg === '--force') parsed.force = true
    else if (arg === '--store') parsed.store = true
    else if (arg === '--skin') parsed.skin = value(arg, ++i)
    else if (arg === '--skin-size') parsed.skinSize = value(arg, ++i)
    else if (arg === '--fps') parsed.fps = value(arg, ++i)
    else if (arg === '--clips') parsed.clips = value(arg, ++i)
    else if (arg === '--mesh') parsed.meshes.push(value(arg, ++i))
    else if (arg === '--scale') parsed.scale = value(arg, ++i)
    else if (arg === '--height') parsed.height = value(arg, ++i)
    else if (arg === '--origin') parsed.origin = value(arg, ++i)
    else if (arg === '--skin-format') parsed.skinFormat = value(arg, ++i)
    else if (arg === '--resources') parsed.resources = value(arg, ++i)
    else if (arg === '--only') parsed.only = value(arg, ++i)
    else if (arg === '--max-bytes') parsed.maxBytes = value(arg, ++i)
    else if (arg === '--no-engine-limits') parsed.noEngineLimits = true
    else if (arg === '--dither') parsed.dither = true
    else if (arg === '--player') parsed.player = true
    else if (arg === '--weapon') parsed.weapon = value(arg, ++i)
    else if (arg === '--game-path') parsed.gamePath = value(arg, ++i)
    else if (arg === '--simplify') {
      // The count is optional: what follows is it unless it is an option or a file convert reads or writes
      // (`--simplify abc` is a wrong count, not OUT).
      const next = argv[i + 1]
      const isCount = next !== undefined && (/^[-+]?\d/.test(next) || !(next.startsWith('-') || /\.(md2|glb|gltf|obj)$/i.test(next)))
      parsed.simplify = isCount ? (i++, next) : true
    } else if (arg.startsWith('--simplify=')) parsed.simplify = arg.slice('--simplify='.length)
    else if (arg === '-o' || arg === '--output') {
      const value = argv[++i]
      if (value === undefined) throw new UsageError(`${arg} needs a file name`)
      parsed.output = value
    } else if (arg.startsWith('--output=')) parsed.output = arg.slice('--output='.length)
    else if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option ${arg}`)
    else if (parsed.command === undefined) parsed.command = arg
    else parsed.files.push(arg)
  }
  return parsed
}

type Loaded = { model: MD2ModelData; bytes: number } | { failure: string }

function load(path: string, io: CliIO): Loaded {
  let data: Uint8Array
  try {
    data = io.readFile(path)
  } catch (error) {
    return { failure: `cannot read: ${describeFileError(error)}` }
  }
  try {
    return { model: parseMD2(data), bytes: data.byteLength }
  } catch (error) {
    if (isMD2Error(error)) return { failure: describeError(error) }
    throw error
  }
}

function singleFile(parsed: Parsed): string {
  const [file, ...extra] = parsed.files
  if (file === undefined) throw new UsageError(`${parsed.command} needs a file`)
  if (extra.length > 0) throw new UsageError(`${parsed.command} takes one file, got ${parsed.files.length}`)
  return file
}

function inspect(parsed: Parsed, io: CliIO): number {
  const file = singleFile(parsed)
  const loaded = load(file, io)
  if ('failure' in loaded) {
    io.stderr(`${file}: ${loaded.failure}\n`)
    return EXIT_FAILED
  }
  const report = inspectReport(file, loaded.bytes, loaded.model)
  io.stdout(parsed.json ? JSON.stringify(report, null, 2) + '\n' : formatInspectReport(report))
  return EXIT_OK
}

function validate(parsed: Parsed, io: CliIO): number {
  const files = parsed.files
  if (files.length === 0) throw new UsageError('validate needs at least one file')
  let refused = 0
  for (const file of files) {
    const loaded = load(file, io)
    if ('failure' in loaded) {
      refused++
      io.stdout(`${file}: ${loaded.failure}\n`)
      continue
    }
    const count = loaded.model.warnings.length
    const warnings = loaded.model.warnings.map(printable).join('; ')
    io.stdout(`${file}: OK${count === 0 ? '' : ` (${count} warning${count === 1 ? '' : 's'}: ${warnings})`}\n`)
  }
  return refused > 0 ? EXIT_FAILED : EXIT_OK
}

function rebuild(parsed: Parsed, io: CliIO): number {
  const file = singleFile(parsed)
  if (parsed.output === undefined) throw new UsageError('rebuild needs -o OUT')
  const loaded = load(file, io)
  if ('failure' in loaded) {
    io.stderr(`${file}: ${loaded.failure}\n`)
    return EXIT_FAILED
  }
  const { model } = loaded
  for (const warning of model.warnings) io.stderr(`${file}: warning: ${printable(warning)}\n`)
  let data: Uint8Array
  try {
    // Parse warnings are already printed; writing adds only what it finds itself (engine limits repeat).
    data = writeMD2(model, { glCommands: 'rebuild' })
  } catch (error) {
    if (!isMD2Error(error)) throw error
    io.stderr(`${file}: cannot rewrite: ${describeError(error)}\n`)
    return EXIT_FAILED
  }
  try {
    writeFiles([{ path: parsed.output, data }], io)
  } catch (error) {
    io.stderr(`${writeFailure(error)}\n`)
    return EXIT_FAILED
  }
  // Read back what was written: the summary describes the file on disk, and proves it parses.
  const written = parseMD2(data)
  const strips = written.glCommands.filter((command) => command.mode === 'strip').length
  io.stdout(
    `wrote ${parsed.output}: ${data.byteLength} bytes (${file}: ${loaded.bytes}), ` +
      `${written.header.numFrames} frames, ${written.header.numTris} triangles, ` +
      `GL commands rebuilt: ${strips} strips, ${written.glCommands.length - strips} fans, ` +
      `${written.glCommandData.length} words (was ${model.glCommandData.length})\n`,
  )
  return EXIT_OK
}

const COMMANDS: Record<string, (parsed: Parsed, io: CliIO) => number | Promise<number>> = {
  inspect,
  validate,
  rebuild,
  convert,
  pak,
  samples,
}
/** Commands with a help text of their own. */
const OWN_HELP = new Set(['convert', 'pak', 'samples'])

/**
 * Runs the command line `argv` (without node and the script name) and returns the exit code:
 * 0 done, 1 a file was refused or could not be read or written, 2 a wrong command line.
 * Bad input gets a one-line message, never a stack trace.
 */
export async function runCli(argv: readonly string[], given: CliIO): Promise<number> {
  // A safety net under `printable`: whatever a command prints, no control character reaches the terminal raw.
  const io: CliIO = {
    ...given,
    stdout: (text: string) => given.stdout(terminalSafe(text)),
    stderr: (text: string) => given.stderr(terminalSafe(text)),
  }
  try {
    const parsed = parseArguments(argv)
    if ((parsed.help && !OWN_HELP.has(parsed.command ?? '')) || parsed.command === 'help') {
      io.stdout(USAGE)
      return EXIT_OK
    }
    if (parsed.command === undefined) throw new UsageError('no command given')
    const command = COMMANDS[parsed.command]
    if (!command) throw new UsageError(`unknown command "${parsed.command}"`)
    return await command(parsed, io)
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`react-three-md2: ${error.message}\n\n${USAGE}`)
      return EXIT_USAGE
    }
    io.stderr(internalError(error))
    return EXIT_FAILED
  }
}

/** Not the input's fault: still one line, and a way to report it. */
export const internalError = (error: unknown): string =>
  `react-three-md2: internal error: ${error instanceof Error ? error.message : String(error)} (please report this)\n`
