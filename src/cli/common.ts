import { MD2Error } from '../core/MD2Error.js'
import { printable } from '../core/printable.js'

/** What the CLI touches outside itself, so tests run it in-process. Output strings carry their own newlines. */
export interface CliIO {
  stdout(text: string): void
  stderr(text: string): void
  /**
   * A file's bytes. With `limits`: regular files only (a device, FIFO or folder is an error), at most
   * `maxBytes` read, and with `inside`, a coded `UNSAFE_PATH` error when links take it out of that folder.
   */
  readFile(path: string, limits?: ReadLimits): Uint8Array
  /**
   * Creates the file `path`, which must not be there (`O_CREAT|O_EXCL`: a file or link already there is an
   * `EEXIST` error, never written through). Only `writeFiles` (writeOutputs.ts) calls it, for its temporary files.
   */
  writeFile(path: string, data: Uint8Array): void
  /** stderr is a terminal: work past a few seconds says so on it (`progress`); off when absent (tests, pipes). */
  progress?: boolean
  exists(path: string): boolean
  /** A folder (not a file) is at `path`. */
  isDirectory(path: string): boolean
  /** Moves a file into place (replacing one there; a link there is replaced itself, never written through). */
  rename(from: string, to: string): void
  /** Deletes a file if it is there (temporary files of a refused run). */
  remove(path: string): void
  /** The absolute form of a path (`/`-separated), as the files are looked up. */
  resolve(path: string): string
  /**
   * The path with every link followed (`realpath`); for a file not there yet, its folder's real path and its
   * name: two paths naming one file give one real path.
   */
  realPath(path: string): string
  /** What is at `path` itself, a link not followed (a dangling link is a link): nothing is `undefined`. */
  entryAt(path: string): 'file' | 'folder' | 'link' | 'other' | undefined
  /** Makes the folder `path` and those above it that are missing. */
  makeFolder(path: string): void
}

export interface ReadLimits {
  maxBytes?: number
  inside?: string
}

export const EXIT_OK = 0
/** A file was refused, unreadable or unwritable. */
export const EXIT_FAILED = 1
/** The command line itself is wrong. */
export const EXIT_USAGE = 2

/** A wrong command line: reported with the usage, exit 2. */
export class UsageError extends Error {}

/** A failure already worded for the user: one line, exit 1. */
export class CliFailure extends Error {}

export interface Parsed {
  command: string | undefined
  files: string[]
  json: boolean
  output: string | undefined
  help: boolean
  force: boolean
  store: boolean
  skin: string | undefined
  skinSize: string | undefined
  /** convert's bake options, as given (checked by convert). */
  fps: string | undefined
  clips: string | undefined
  meshes: string[]
  scale: string | undefined
  /** `--height H`: the first frame (a player's stand01) scaled to H units tall. */
  height: string | undefined
  /** `--origin X,Y,Z`: where the first frame's feet go (MD2's axes), as given. */
  origin: string | undefined
  skinFormat: string | undefined
  /** `--dither`: a PCX skin's colours diffused (Floyd–Steinberg) rather than each mapped to its nearest. */
  dither: boolean
  /** `--player`: a Quake II player (`players/NAME/tris.md2`: the engine's 198 frames, skin and icon). */
  player: boolean
  /** `--weapon A,B`: a player's weapon, these meshes baked apart into `weapon.md2`. */
  weapon: string | undefined
  /** `--simplify` alone (true) or with a triangle count (as given). */
  simplify: true | string | undefined
  /** `--resources DIR`: where a .gltf's URIs may lead. */
  resources: string | undefined
  /** `--no-engine-limits`: write what an unmodified Quake II would not load. */
  noEngineLimits: boolean
  /** `--game-path DIR`: the game folder the skin is named under in the MD2 (as given; checked by convert). */
  gamePath: string | undefined
  /** `--only NAME`: the one sample `samples` writes. */
  only: string | undefined
  /** `--max-bytes N`: convert's budget for what it reads and allocates (as given; `parseMaxBytes`). */
  maxBytes: string | undefined
}

/** An MD2Error as one line without a stack: code, where, why (the names it quotes from a file escaped: `printable`). */
export function describeError(error: MD2Error): string {
  const where =
    error.section === undefined ? '' : error.offset === undefined ? `${error.section}: ` : `${error.section} at offset ${error.offset}: `
  return printable(`${error.code}: ${where}${error.reason}`)
}

/** Node's file errors carry a code (ENOENT, EACCES, EISDIR): say it in words. */
export function describeFileError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code
  const known: Record<string, string> = {
    ENOENT: 'no such file',
    EACCES: 'permission denied',
    EISDIR: 'is a directory',
    ENOTDIR: 'a parent is not a directory',
    EEXIST: 'a file is in the way',
    ENOTREG: 'not a regular file',
  }
  if (typeof code === 'string' && known[code]) return known[code]
  return error instanceof Error ? error.message : String(error)
}

/** The folder part of a `/`- or `\`-separated path ('' for a bare name). */
export function folderOf(path: string): string {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'))
  return cut < 0 ? '' : path.slice(0, cut + 1)
}

/** Reads a file the user named, a worded `CliFailure` when it cannot be read. */
export function readInput(path: string, io: CliIO, limits?: ReadLimits): Uint8Array {
  try {
    return io.readFile(path, limits)
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === 'UNSAFE_PATH') throw error
    throw new CliFailure(`${path}: cannot read: ${describeFileError(error)}`)
  }
}

/** A line on stderr about long work, only where stderr is a terminal (`io.progress`): piped output stays as it is. */
export function progress(io: CliIO, line: string): void {
  if (io.progress) io.stderr(`${line}\n`)
}

/** What one convert run may read (every URI's file once) and allocate for its output, by default: 1 GiB. */
export const DEFAULT_MAX_BYTES = 1024 * 1024 * 1024

const grouped = (bytes: number) => bytes.toLocaleString('en-US')

/**
 * One budget per convert run: the bytes read from every file a URI names (each file once, however often it
 * is named: `files`, by real path), the binary data put together from them, the pixels of the textures
 * decoded (from their headers) and the bytes a conversion will allocate and write (from the model's counts).
 * Each is counted before it is read or allocated; past the limit, a coded refusal naming the size.
 */
export class RunBudget {
  used = 0
  /** The bytes of each file read for a URI, by real path, and how far it was read. */
  readonly files = new Map<string, { bytes: Uint8Array; limit: number }>()

  constructor(readonly limit = DEFAULT_MAX_BYTES) {}

  /** Counts `bytes` more for `what`, or refuses (`OUT_OF_RANGE`, section `budget`) before they are spent. */
  charge(bytes: number, what: string, file: string): void {
    if (this.used + bytes > this.limit)
      throw new MD2Error(
        'OUT_OF_RANGE',
        `${what} needs ${grouped(bytes)} bytes, which would bring this run to ${grouped(this.used + bytes)}, past its budget of ` +
          `${grouped(this.limit)} bytes (--max-bytes N allows more)`,
        { section: 'budget', file },
      )
    this.used += bytes
  }
}

/** `--max-bytes N`: a whole number of bytes, or with K, M or G (binary: 1K = 1,024). */
export function parseMaxBytes(given: string | undefined): number {
  if (given === undefined) return DEFAULT_MAX_BYTES
  const match = /^(\d+)([KMG]i?B?)?$/i.exec(given.trim())
  const scale = { K: 2 ** 10, M: 2 ** 20, G: 2 ** 30 }[(match?.[2]?.[0]?.toUpperCase() ?? '') as 'K' | 'M' | 'G'] ?? 1
  const bytes = match ? Number(match[1]) * scale : NaN
  if (!(Number.isSafeInteger(bytes) && bytes > 0)) throw new UsageError(`--max-bytes ${given}: not a number of bytes (such as 2G or 500M)`)
  return bytes
}

/** The path with `/` separators and no `.` or `..` parts left (`..` kept at the start of a relative one). */
function normalise(path: string): string {
  const absolute = path.startsWith('/')
  const parts: string[] = []
  for (const part of path.replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..' && parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop()
    else if (part !== '..' || !absolute) parts.push(part)
  }
  return (path.startsWith('/') ? '/' : '') + parts.join('/')
}

function refuseURI(input: string, uri: string, why: string, what = 'URI'): never {
  const shown = uri.length > 80 ? `${uri.slice(0, 77)}…` : uri
  throw new MD2Error('UNSAFE_PATH', `${what} "${shown}" ${why}; not read`, { section: 'uri', file: input })
}

/**
 * The file a name found inside `input` (a glTF URI, an MD2's skin name) leads to, when it lies at or below
 * `root`: a scheme (`file:`, `http:`), an absolute path, a drive letter or `..` leading out of `root` is
 * refused, as `pak extract` refuses such entry names. Relative to `input`'s folder, or to `base` when given.
 * With `percent`, the name is a URI: `%2e%2e` is `..`. Links are checked again when the file is opened.
 */
export function fileInside(
  input: string,
  name: string,
  root: string,
  io: CliIO,
  { percent = true, base = folderOf(input), what = 'URI' } = {},
): string {
  const shownRoot = root.replace(/\/?$/, '/')
  const refuse = (why: string): never => refuseURI(input, name, why, what)
  if (/^[a-z][a-z0-9+.-]*:/i.test(name))
    refuse(`is not a relative file name (only ${percent ? 'data: URIs and ' : ''}files at or below ${shownRoot} are read)`)
  let path = name
  if (percent)
    try {
      path = decodeURIComponent(name)
    } catch {
      refuse('is not a valid URI')
    }
  if (path.includes('\0')) refuse('holds a NUL')
  if (/^([/\\]|[a-z]:)/i.test(path)) refuse(`is an absolute path (only files at or below ${shownRoot} are read)`)
  const target = normalise(io.resolve(base + path))
  const inside = normalise(io.resolve(root))
  if (!(target.startsWith(inside.endsWith('/') ? inside : `${inside}/`) && target !== inside))
    refuse(`leads outside ${shownRoot} (only files at or below it are read${percent ? '; --resources DIR names another folder' : ''})`)
  return target
}
