import { CliFailure, describeFileError, type CliIO } from './common.js'

/** A file convert writes: the model, and beside it the skin and the animation table. */
export interface OutputFile {
  path: string
  data: Uint8Array
}

/**
 * The files a run reads, by real path (links followed), so that no output lands on one: its `io` is the
 * run's, recording every file read through it; `add` names a file before it is read (the command line's).
 */
export class ReadLog {
  private readonly read = new Map<string, string>()
  readonly io: CliIO

  constructor(io: CliIO) {
    this.io = {
      ...io,
      readFile: (path, limits) => {
        const bytes = io.readFile(path, limits)
        this.add(path)
        return bytes
      },
    }
  }

  add(path: string): void {
    this.read.set(this.io.realPath(path), path)
  }

  /** The file read whose real path is `path`'s, if any. */
  readAs(path: string): string | undefined {
    return this.read.get(this.io.realPath(path))
  }

  /** Refuses outputs that are files this run reads, `--force` or not: nothing is written. */
  check(paths: readonly string[]): void {
    for (const path of paths) {
      const input = this.readAs(path)
      if (input !== undefined)
        throw new CliFailure(
          `${path}: cannot write: it is ${input === path ? 'an input' : input}, which this run reads; nothing written (--force does not overwrite inputs)`,
        )
    }
  }
}

/**
 * Refuses, before any work, outputs that cannot be written as asked: OUT a folder, OUT or a side file one of
 * the files `read` already holds, or a side file (the skin, the animation table) already there without
 * `--force`, as `pak extract` keeps existing files.
 */
export function checkOutputs(output: string, sideFiles: readonly string[], force: boolean, read: ReadLog): void {
  const io = read.io
  for (const path of [output, ...sideFiles]) if (io.isDirectory(path)) throw new CliFailure(`${path}: cannot write: is a directory`)
  read.check([output, ...sideFiles])
  if (force) return
  const existing = sideFiles.filter((path) => io.exists(path))
  if (existing.length > 0) throw new CliFailure(`${existing.join(', ')}: already there; nothing written (--force overwrites)`)
}

/**
 * Writes every file under a temporary name beside it, then renames them all into place: a run that fails
 * part way leaves the files that were there as they were, no half-written model and no temporary file.
 * Outputs that are files the run read are refused first; `stale` (side files an earlier run wrote for
 * this OUT and this one does not) are removed once all are in place, unless the run read them.
 */
export function writeOutputs(files: readonly OutputFile[], read: ReadLog, stale: readonly string[] = []): void {
  const io = read.io
  read.check(files.map((file) => file.path))
  const suffix = `.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.partial`
  const written: string[] = []
  const cleanUp = () => {
    for (const path of written) {
      try {
        io.remove(path)
      } catch {
        // Nothing more to do: the temporary file's name says what it is.
      }
    }
  }
  for (const { path, data } of files) {
    // Listed before writing: a write that fails part way (a full disk) leaves a file to remove too.
    written.push(path + suffix)
    try {
      io.writeFile(path + suffix, data)
    } catch (error) {
      cleanUp()
      throw new CliFailure(`${path}: cannot write: ${describeFileError(error)}`)
    }
  }
  for (const [i, { path }] of files.entries()) {
    try {
      io.rename(path + suffix, path)
    } catch (error) {
      cleanUp()
      const moved = files.slice(0, i).map((file) => file.path)
      throw new CliFailure(`${path}: cannot write: ${describeFileError(error)}${moved.length > 0 ? ` (${moved.join(', ')} written)` : ''}`)
    }
  }
  for (const path of stale) if (read.readAs(path) === undefined) io.remove(path)
}
