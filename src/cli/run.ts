import { isMD2Error, type MD2Error } from '../core/errors.js'
import { parseMD2 } from '../core/format/parse.js'
import type { MD2Model } from '../core/format/types.js'
import { writeMD2 } from '../core/format/write.js'
import { formatInspectReport, inspectReport } from './inspect.js'

/** What the CLI touches outside itself, so tests run it in-process. Output strings carry their own newlines. */
export interface CliIO {
  stdout(text: string): void
  stderr(text: string): void
  readFile(path: string): Uint8Array
  writeFile(path: string, data: Uint8Array): void
}

export const EXIT_OK = 0
/** A file was refused, unreadable or unwritable. */
export const EXIT_FAILED = 1
/** The command line itself is wrong. */
export const EXIT_USAGE = 2

export const USAGE = `Usage: react-three-md2 <command> [options]

Commands:
  inspect FILE [--json]    header, sections (offsets and sizes), animations, skins, warnings
  validate FILE...         one line per file: OK, or why it is refused (exit 1 if any is)
  rebuild FILE -o OUT      rewrite in Quake II's qdata layout with rebuilt GL commands

Options:
  -h, --help               show this help
`

/** A wrong command line: reported with the usage, exit 2. */
class UsageError extends Error {}

interface Parsed {
  command: string | undefined
  files: string[]
  json: boolean
  output: string | undefined
  help: boolean
}

function parseArguments(argv: readonly string[]): Parsed {
  const parsed: Parsed = { command: undefined, files: [], json: false, output: undefined, help: false }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '-h' || arg === '--help') parsed.help = true
    else if (arg === '--json') parsed.json = true
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

/** An MD2Error as one line without a stack: code, where, why. */
export function describeError(error: MD2Error): string {
  const where =
    error.section === undefined ? '' : error.offset === undefined ? `${error.section}: ` : `${error.section} at offset ${error.offset}: `
  return `${error.code}: ${where}${error.reason}`
}

/** Node's file errors carry a code (ENOENT, EACCES, EISDIR): say it in words. */
function describeFileError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code
  const known: Record<string, string> = {
    ENOENT: 'no such file',
    EACCES: 'permission denied',
    EISDIR: 'is a directory',
    ENOTDIR: 'a parent is not a directory',
  }
  if (typeof code === 'string' && known[code]) return known[code]
  return error instanceof Error ? error.message : String(error)
}

type Loaded = { model: MD2Model; bytes: number } | { failure: string }

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
    io.stdout(`${file}: OK${count === 0 ? '' : ` (${count} warning${count === 1 ? '' : 's'}: ${loaded.model.warnings.join('; ')})`}\n`)
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
  for (const warning of model.warnings) io.stderr(`${file}: warning: ${warning}\n`)
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
    io.writeFile(parsed.output, data)
  } catch (error) {
    io.stderr(`${parsed.output}: cannot write: ${describeFileError(error)}\n`)
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

const COMMANDS: Record<string, (parsed: Parsed, io: CliIO) => number> = { inspect, validate, rebuild }

/**
 * Runs the command line `argv` (without node and the script name) and returns the exit code:
 * 0 done, 1 a file was refused or could not be read or written, 2 a wrong command line.
 * Bad input gets a one-line message, never a stack trace.
 */
export function runCli(argv: readonly string[], io: CliIO): number {
  try {
    const parsed = parseArguments(argv)
    if (parsed.help || parsed.command === 'help') {
      io.stdout(USAGE)
      return EXIT_OK
    }
    if (parsed.command === undefined) throw new UsageError('no command given')
    const command = COMMANDS[parsed.command]
    if (!command) throw new UsageError(`unknown command "${parsed.command}"`)
    return command(parsed, io)
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`react-three-md2: ${error.message}\n\n${USAGE}`)
      return EXIT_USAGE
    }
    // Not the input's fault: still one line, and a way to report it.
    io.stderr(`react-three-md2: internal error: ${error instanceof Error ? error.message : String(error)} (please report this)\n`)
    return EXIT_FAILED
  }
}
