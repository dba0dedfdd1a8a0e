import { safeEntryPath } from '../core/archive/safeEntryPath.js'
import { openArchive, type MD2ArchiveFiles } from '../core/archive/openArchive.js'
import { writePak, writeZip, type ArchiveInput } from '../core/archive/writeArchive.js'
import { isMD2Error } from '../core/MD2Error.js'
import { printable } from '../core/printable.js'
import { EXIT_FAILED, EXIT_OK, UsageError, describeError, describeFileError, type CliIO, type Parsed } from './common.js'
import { checkTarget, writeFailure, writeFiles, type OutputFile } from './writeOutputs.js'

export const PAK_USAGE = `Usage: react-three-md2 pak <list|extract|add> ARCHIVE [...]

  pak list ARCHIVE                   every file in a .pak, .pk3 or .zip, with its size
  pak extract ARCHIVE DIR [--force]  writes every file under DIR; entries named with "..", an absolute
                                     path or a drive letter, or meeting a link under DIR, are refused
                                     (UNSAFE_PATH) and nothing is written outside DIR; existing files are
                                     kept unless --force; the others are written all or none
  pak add ARCHIVE FILE... [--store]  adds (or replaces) files, stored under their paths as given, relative
                                     to this folder; creates ARCHIVE if missing: .pak makes id's PACK,
                                     .pk3/.zip a zip (deflated; --store keeps them uncompressed)

Exit status: 0 done, 1 a file or entry was refused, skipped or could not be read or written, 2 usage.
`

/** Work this long or longer reports its progress on stderr. */
const PROGRESS_EVERY = 100

function readArchive(path: string, io: CliIO): MD2ArchiveFiles | string {
  let bytes: Uint8Array
  try {
    bytes = io.readFile(path)
  } catch (error) {
    return `cannot read: ${describeFileError(error)}`
  }
  try {
    return openArchive(bytes, { name: path })
  } catch (error) {
    if (isMD2Error(error)) return describeError(error)
    throw error
  }
}

function kindOf(path: string): 'pak' | 'zip' {
  if (/\.pak$/i.test(path)) return 'pak'
  if (/\.(pk3|zip)$/i.test(path)) return 'zip'
  throw new UsageError(`${path}: the archive's extension says its kind: .pak, .pk3 or .zip`)
}

export function pak(parsed: Parsed, io: CliIO): number {
  const [action, archivePath, ...rest] = parsed.files
  if (parsed.help || action === undefined) {
    io.stdout(PAK_USAGE)
    return action === undefined && !parsed.help ? EXIT_FAILED : EXIT_OK
  }
  if (archivePath === undefined) throw new UsageError(`pak ${action} needs an ARCHIVE`)
  if (action === 'list') return list(archivePath, rest, io)
  if (action === 'extract') return extract(archivePath, rest, parsed.force, io)
  if (action === 'add') return add(archivePath, rest, parsed.store, io)
  throw new UsageError(`unknown pak action "${action}" (list, extract or add)`)
}

function list(path: string, rest: string[], io: CliIO): number {
  if (rest.length > 0) throw new UsageError('pak list takes one ARCHIVE')
  const archive = readArchive(path, io)
  if (typeof archive === 'string') {
    io.stderr(`${path}: ${archive}\n`)
    return EXIT_FAILED
  }
  const width = String(Math.max(0, ...archive.entries.map((entry) => entry.size))).length
  let total = 0
  for (const entry of archive.entries) {
    total += entry.size
    io.stdout(`${String(entry.size).padStart(width)}  ${printable(entry.name)}\n`)
  }
  io.stdout(
    `${archive.entries.length} file${archive.entries.length === 1 ? '' : 's'}, ${total} bytes (${archive.kind === 'pak' ? 'PACK' : 'zip'})\n`,
  )
  return EXIT_OK
}

function extract(path: string, rest: string[], force: boolean, io: CliIO): number {
  const [dir, ...extra] = rest
  if (dir === undefined) throw new UsageError('pak extract needs a DIR to write to')
  if (extra.length > 0) throw new UsageError('pak extract takes ARCHIVE DIR')
  const archive = readArchive(path, io)
  if (typeof archive === 'string') {
    io.stderr(`${path}: ${archive}\n`)
    return EXIT_FAILED
  }
  let written = 0
  let refused = 0
  let kept = 0
  // Zip folder entries (`players/`) are not files: their files make the folders.
  const files = archive.entries.filter((entry) => !entry.name.endsWith('/'))
  const total = files.length
  const root = dir.replace(/[/\\]+$/, '')
  // Each entry is checked first (its name, a link or a file in its way, a file already there), then the ones
  // kept are written all or none.
  const writes: OutputFile[] = []
  files.forEach((entry, i) => {
    if (total >= PROGRESS_EVERY && i > 0 && i % PROGRESS_EVERY === 0) io.stderr(`extracting: ${i} of ${total} files\n`)
    let relative: string
    try {
      relative = safeEntryPath(entry.name, { file: path })
    } catch (error) {
      if (!isMD2Error(error)) throw error
      refused++
      io.stderr(`${path}: ${describeError(error)}\n`)
      return
    }
    const target = `${root}/${relative}`
    try {
      checkTarget(target, io, { root, section: 'archive' })
    } catch (error) {
      const line = writeFailure(error)
      if (isMD2Error(error)) {
        refused++
        io.stderr(`${path}: ${describeError(error)}\n`)
      } else {
        kept++
        io.stderr(`${line}\n`)
      }
      return
    }
    if (!force && io.exists(target)) {
      kept++
      io.stderr(`${printable(target)}: exists, not overwritten (--force overwrites)\n`)
      return
    }
    writes.push({ path: target, data: archive.read(entry.name) ?? new Uint8Array(0) })
  })
  try {
    writeFiles(writes, io, { root, section: 'archive' })
    written = writes.length
  } catch (error) {
    io.stderr(`${writeFailure(error)}\n`)
    kept += writes.length
  }
  io.stdout(
    `extracted ${written} of ${total} file${total === 1 ? '' : 's'} to ${dir}` +
      (refused > 0 ? `, ${refused} refused` : '') +
      (kept > 0 ? `, ${kept} not written` : '') +
      '\n',
  )
  return refused > 0 || kept > 0 ? EXIT_FAILED : EXIT_OK
}

function add(path: string, files: string[], store: boolean, io: CliIO): number {
  if (files.length === 0) throw new UsageError('pak add needs at least one FILE')
  const kind = kindOf(path)
  // Every name is checked before anything is read or written.
  const names: string[] = []
  for (const file of files) {
    try {
      names.push(safeEntryPath(file))
    } catch (error) {
      if (!isMD2Error(error)) throw error
      io.stderr(`${file}: ${describeError(error)} (give paths inside this folder)\n`)
      return EXIT_FAILED
    }
  }
  const inputs: ArchiveInput[] = []
  if (io.exists(path)) {
    const archive = readArchive(path, io)
    if (typeof archive === 'string') {
      io.stderr(`${path}: ${archive}\n`)
      return EXIT_FAILED
    }
    for (const entry of archive.entries) inputs.push([entry.name, archive.read(entry.name) ?? new Uint8Array(0)])
  }
  const before = new Set(inputs.map(([name]) => name.replace(/\\/g, '/').toLowerCase()))
  let replaced = 0
  for (let i = 0; i < files.length; i++) {
    if (files.length >= PROGRESS_EVERY && i > 0 && i % PROGRESS_EVERY === 0) io.stderr(`adding: ${i} of ${files.length} files\n`)
    let bytes: Uint8Array
    try {
      bytes = io.readFile(files[i]!)
    } catch (error) {
      io.stderr(`${files[i]}: cannot read: ${describeFileError(error)}\n`)
      return EXIT_FAILED
    }
    if (before.has(names[i]!.toLowerCase())) replaced++
    inputs.push([names[i]!, bytes])
  }
  let data: Uint8Array
  try {
    data = kind === 'pak' ? writePak(inputs) : writeZip(inputs, { compress: !store })
  } catch (error) {
    if (!isMD2Error(error)) throw error
    io.stderr(`${path}: ${describeError(error)}\n`)
    return EXIT_FAILED
  }
  try {
    writeFiles([{ path, data }], io)
  } catch (error) {
    io.stderr(`${writeFailure(error)}\n`)
    return EXIT_FAILED
  }
  const count = openArchive(data).entries.length
  io.stdout(`${path}: added ${files.length - replaced}, replaced ${replaced}; ${count} files, ${data.length} bytes\n`)
  return EXIT_OK
}
