/// <reference types="node" />
// The only file that touches Node: the build's declaration pass has no global node types, so name them here.
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { basename, dirname, join, relative, resolve, isAbsolute } from 'node:path'
import { MD2Error } from '../core/MD2Error.js'
import { threeLoadRunning } from './abandonedParts.js'
import { EXIT_FAILED } from './common.js'
import { internalError, runCli, type CliIO } from './run.js'

export { runCli, USAGE, EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliIO } from './run.js'

/** The files of this machine, for the command line (tests use the same one on temporary folders). */
export const nodeIO: CliIO = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  // Progress lines only on a terminal: piped or redirected stderr gets none.
  progress: process.stderr.isTTY === true,
  readFile: (path, limits) => {
    if (!limits) {
      const buffer = readFileSync(path)
      return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)
    }
    return readBounded(path, limits.maxBytes ?? Infinity, limits.inside)
  },
  // Exclusive: a file or a link (dangling or not) at a temporary name is an error, never written through.
  writeFile: (path, data) => writeFileSync(path, data, { flag: 'wx' }),
  exists: (path) => existsSync(path),
  isDirectory: (path) => {
    try {
      return statSync(path).isDirectory()
    } catch {
      return false
    }
  },
  rename: (from, to) => renameSync(from, to),
  remove: (path) => rmSync(path, { force: true }),
  resolve: (path) => resolve(path).replace(/\\/g, '/'),
  realPath: (path) => {
    const named = resolve(path)
    try {
      return realpathSync(named)
    } catch {
      // Not there (yet): its folder's real path, or the path as given when the folder is not there either.
      try {
        return join(realpathSync(dirname(named)), basename(named))
      } catch {
        return named
      }
    }
  },
  entryAt: (path) => {
    let stat
    try {
      stat = lstatSync(path)
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') return undefined
      throw error
    }
    return stat.isSymbolicLink() ? 'link' : stat.isDirectory() ? 'folder' : stat.isFile() ? 'file' : 'other'
  },
  makeFolder: (path) => void mkdirSync(path, { recursive: true }),
}

/** Outside `dir` once links are followed. */
function outsideOf(dir: string, path: string): boolean {
  const inside = relative(realpathSync(dir), realpathSync(path))
  return inside.startsWith('..') || isAbsolute(inside)
}

/**
 * At most `maxBytes` of a regular file (never a device, FIFO or folder, which could be endless), opened
 * first and checked on the open file, so what is checked is what is read.
 */
function readBounded(path: string, maxBytes: number, inside: string | undefined): Uint8Array {
  if (inside !== undefined && existsSync(path) && outsideOf(inside, path))
    throw new MD2Error('UNSAFE_PATH', `${path} leads outside ${inside} (a link); not read`, { section: 'uri', file: path })
  // Non-blocking: opening a FIFO to read would otherwise wait for a writer before fstat could refuse it.
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  try {
    const stat = fstatSync(fd)
    if (!stat.isFile()) throw Object.assign(new Error(`${path}: not a regular file`), { code: stat.isDirectory() ? 'EISDIR' : 'ENOTREG' })
    const length = Math.min(stat.size, maxBytes)
    const bytes = new Uint8Array(length)
    let done = 0
    while (done < length) {
      const got = readSync(fd, bytes, done, length - done, done)
      if (got === 0) break
      done += got
    }
    return done === length ? bytes : bytes.subarray(0, done)
  } finally {
    closeSync(fd)
  }
}

/**
 * The `react-three-md2` command: `argv` is `process.argv` (node, script, then the arguments).
 * Sets `process.exitCode` rather than exiting, so pending output is flushed; also resolves to it.
 */
export async function main(argv: readonly string[] = process.argv): Promise<number> {
  // A rejection nothing handled fails the run as an error thrown does (one line, no stack trace), unless it
  // came while three's loader ran: then it is a part the loader abandoned (abandonedParts.ts).
  let unhandled = false
  process.on('unhandledRejection', (reason) => {
    if (threeLoadRunning()) return
    if (!unhandled) nodeIO.stderr(internalError(reason))
    unhandled = true
    process.exitCode = EXIT_FAILED
  })
  const ran = await runCli(argv.slice(2), nodeIO)
  const code = unhandled ? EXIT_FAILED : ran
  process.exitCode = code
  return code
}
