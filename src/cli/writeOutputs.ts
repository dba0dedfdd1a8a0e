import { CliFailure, describeFileError, type CliIO } from './common.js'

/** A file convert writes: the model, and beside it the skin and the animation table. */
export interface OutputFile {
  path: string
  data: Uint8Array
}

/**
 * Refuses, before any work, outputs that cannot be written as asked: OUT a folder, or a side file (the skin,
 * the animation table) already there without `--force`, as `pak extract` keeps existing files.
 */
export function checkOutputs(output: string, sideFiles: readonly string[], force: boolean, io: CliIO): void {
  for (const path of [output, ...sideFiles]) if (io.isDirectory(path)) throw new CliFailure(`${path}: cannot write: is a directory`)
  if (force) return
  const existing = sideFiles.filter((path) => io.exists(path))
  if (existing.length > 0) throw new CliFailure(`${existing.join(', ')}: already there; nothing written (--force overwrites)`)
}

/**
 * Writes every file under a temporary name beside it, then renames them all into place: a run that fails
 * part way leaves the files that were there as they were, and no half-written model.
 */
export function writeOutputs(files: readonly OutputFile[], io: CliIO): void {
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
    try {
      io.writeFile(path + suffix, data)
      written.push(path + suffix)
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
}
