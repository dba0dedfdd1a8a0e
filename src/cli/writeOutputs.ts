import { isMD2Error, MD2Error } from '../core/MD2Error.js'
import { CliFailure, describeError, describeFileError, folderOf, type CliIO } from './common.js'

/** A file a command writes: convert's model and, beside it, the skin and the animation table; a sample; an entry. */
export interface OutputFile {
  path: string
  data: Uint8Array
}

/** Where a command writes, for `checkTarget` and `writeFiles`. */
export interface WriteOptions {
  /**
   * The folder the user named (`samples DIR`, `pak extract ARCHIVE DIR`): no link below it is followed, and
   * the folders below it are made. Without it, each file's own folder (a link in the path the user typed is
   * theirs to follow; the file's own name is still never a link), which must be there.
   */
  root?: string
  /** The part of the file an `UNSAFE_PATH` error names: `output`, or `archive` for an entry. */
  section?: string
}

/**
 * Refuses, before anything is written, a file that cannot be written where asked: a link (dangling or not)
 * where the file or a folder below `root` goes (`UNSAFE_PATH`, naming it: a link is never written through,
 * nor replaced), a folder or a device in the file's place, a file where a folder goes.
 */
export function checkTarget(path: string, io: CliIO, options: WriteOptions = {}): void {
  const root = (options.root ?? folderOf(path)).replace(/[/\\]+$/, '')
  if (options.root !== undefined && (!path.startsWith(root) || !/^[/\\]/.test(path.slice(root.length))))
    throw new Error(`${path} is not below ${root}`) // The callers build their paths below it.
  // Each step below the root (its folders, then the file), as a prefix of the path as given.
  const start = options.root === undefined ? folderOf(path).length : root.length
  const steps: string[] = []
  for (const separator of path.matchAll(/[/\\]+/g)) if (separator.index > start) steps.push(path.slice(0, separator.index))
  steps.push(path)
  for (const [i, step] of steps.entries()) {
    let kind: ReturnType<CliIO['entryAt']>
    try {
      kind = io.entryAt(step)
    } catch (error) {
      throw new CliFailure(`${path}: cannot write: ${describeFileError(error)}`) // A folder not searchable, say.
    }
    if (kind === undefined) return
    if (kind === 'link')
      throw new MD2Error(
        'UNSAFE_PATH',
        `${step} is a link; no file is written through one (it could lead outside ${root === '' ? 'this folder' : root}); not written`,
        { section: options.section ?? 'output', file: path },
      )
    const last = i === steps.length - 1
    if (!last && kind !== 'folder') throw new CliFailure(`${path}: cannot write: ${step} is not a folder`)
    if (last && kind !== 'file')
      throw new CliFailure(`${path}: cannot write: ${kind === 'folder' ? 'is a directory' : 'not a regular file'}`)
  }
}

/**
 * The one way the CLI writes files. Every target is checked first (`checkTarget`), then every file is
 * created under a temporary name beside its target (exclusively: a file or link already at that name is an
 * error, never written through), then each is renamed over its target (a rename replaces the name, never
 * writes through what was there). All or none: a check or a write that fails leaves no file written and no
 * temporary file; only a rename failing part way (the disk gone) leaves the ones renamed before it, named.
 */
export function writeFiles(files: readonly OutputFile[], io: CliIO, options: WriteOptions = {}): void {
  for (const { path } of files) checkTarget(path, io, options)
  const suffix = `.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`
  const temporary = files.map(({ path }, i) => `${path}${suffix}${i}.partial`)
  const created: string[] = []
  const cleanUp = () => {
    for (const path of created) {
      try {
        io.remove(path)
      } catch {
        // Nothing more to do: the temporary file's name says what it is.
      }
    }
  }
  const several = files.length > 1 ? '; nothing written' : ''
  for (const [i, { path, data }] of files.entries()) {
    try {
      if (options.root !== undefined) io.makeFolder(folderOf(path))
      // Listed before writing: a write that fails part way (a full disk) leaves a file to remove too.
      created.push(temporary[i]!)
      io.writeFile(temporary[i]!, data)
    } catch (error) {
      // A file already at the temporary name is not ours: left as it was.
      if ((error as { code?: unknown } | null)?.code === 'EEXIST' && created.at(-1) === temporary[i]) created.pop()
      cleanUp()
      throw new CliFailure(`${path}: cannot write: ${describeFileError(error)}${several}`)
    }
  }
  for (const [i, { path }] of files.entries()) {
    try {
      io.rename(temporary[i]!, path)
    } catch (error) {
      cleanUp()
      const moved = files.slice(0, i).map((file) => file.path)
      throw new CliFailure(
        `${path}: cannot write: ${describeFileError(error)}${moved.length > 0 ? ` (${moved.join(', ')} written)` : several}`,
      )
    }
  }
}

/** A failure of `checkTarget` or `writeFiles` as the one line a command prints (anything else is rethrown). */
export function writeFailure(error: unknown): string {
  if (error instanceof CliFailure) return error.message
  if (isMD2Error(error) && error.code === 'UNSAFE_PATH') return `${error.file ?? ''}: ${describeError(error)}`
  throw error
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
 * the files `read` already holds, a link where one goes (`checkTarget`), or a side file (the skin, the
 * animation table) already there without `--force`, as `pak extract` keeps existing files.
 */
export function checkOutputs(output: string, sideFiles: readonly string[], force: boolean, read: ReadLog): void {
  const io = read.io
  for (const path of [output, ...sideFiles]) if (io.isDirectory(path)) throw new CliFailure(`${path}: cannot write: is a directory`)
  read.check([output, ...sideFiles])
  for (const path of [output, ...sideFiles]) checkTarget(path, io)
  if (force) return
  const existing = sideFiles.filter((path) => io.exists(path))
  if (existing.length > 0) throw new CliFailure(`${existing.join(', ')}: already there; nothing written (--force overwrites)`)
}

/**
 * Convert's outputs, through `writeFiles`: outputs that are files the run read are refused first. `stale`
 * (side files an earlier run wrote for this OUT and this one does not) are removed once all are in place,
 * unless the run read them, and only with `force`: without it, the run is refused, nothing written.
 */
export function writeOutputs(files: readonly OutputFile[], read: ReadLog, { stale = [], force = false }: StaleFiles = {}): void {
  read.check(files.map((file) => file.path))
  const removed = stale.filter((path) => read.readAs(path) === undefined)
  if (removed.length > 0 && !force)
    throw new CliFailure(
      `${removed.join(', ')}: an animation table an earlier run wrote for this OUT, which this run would remove (it writes none); ` +
        'nothing written (--force removes it)',
    )
  writeFiles(files, read.io)
  for (const path of removed) read.io.remove(path)
}

export interface StaleFiles {
  stale?: readonly string[]
  force?: boolean
}
