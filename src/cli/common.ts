import type { MD2Error } from '../core/MD2Error.js'

/** What the CLI touches outside itself, so tests run it in-process. Output strings carry their own newlines. */
export interface CliIO {
  stdout(text: string): void
  stderr(text: string): void
  /**
   * A file's bytes. With `limits`: regular files only (a device, FIFO or folder is an error), at most
   * `maxBytes` read, and with `inside`, a coded `UNSAFE_PATH` error when links take it out of that folder.
   */
  readFile(path: string, limits?: ReadLimits): Uint8Array
  writeFile(path: string, data: Uint8Array): void
  exists(path: string): boolean
  /** A folder (not a file) is at `path`. */
  isDirectory(path: string): boolean
  /** Moves a file into place (replacing one there). */
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
  /**
   * Writes `path` (creating its folders), which must lie inside `dir` once links are followed: a coded
   * `UNSAFE_PATH` error otherwise (a link inside DIR pointing elsewhere), and nothing created or written.
   */
  writeInside(dir: string, path: string, data: Uint8Array): void
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
}

/** An MD2Error as one line without a stack: code, where, why. */
export function describeError(error: MD2Error): string {
  const where =
    error.section === undefined ? '' : error.offset === undefined ? `${error.section}: ` : `${error.section} at offset ${error.offset}: `
  return `${error.code}: ${where}${error.reason}`
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
