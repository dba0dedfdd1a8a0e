/**
 * Every failure the library reports on bad input is an `MD2Error`: a typed `code` to branch on and a
 * message that names the file part, the byte offset and the file when they are known.
 */
export type MD2ErrorCode =
  /** The first four bytes are not "IDP2". */
  | 'BAD_MAGIC'
  /** The version field is not 8. */
  | 'BAD_VERSION'
  /** A section or record runs past the end of the data. */
  | 'TRUNCATED'
  /** A count or offset is negative, absurd, or points outside the data. */
  | 'OUT_OF_RANGE'
  /** A triangle or GL command refers to a vertex or texture coordinate that does not exist. */
  | 'BAD_INDEX'
  /** The model has no vertices, triangles, texture coordinates or frames. */
  | 'EMPTY'
  /** The header's frame size cannot hold the declared vertices. */
  | 'BAD_FRAME_SIZE'
  /** A value that must be a finite number is not (NaN or infinite scale, translate, position). */
  | 'BAD_VALUE'
  /** A skin image (PCX, TGA) is damaged or of an unsupported kind. */
  | 'BAD_IMAGE'
  /** A model cannot be written as MD2 (too many vertices, names too long...). */
  | 'UNWRITABLE'
  /** A caller passed an argument the API cannot use (wrong type, frame out of range, short buffer). */
  | 'BAD_ARGUMENT'
  /** A network or file load failed before parsing. */
  | 'LOAD_FAILED'
  /** An archive entry's name would leave the folder it is extracted to (`..`, an absolute path, a drive). */
  | 'UNSAFE_PATH'
  /**
   * A peer dependency is older than a feature needs (three.js before r187 for `react-three-md2/webgpu`), or the
   * feature's code is not loaded (a crowd's looks or queries on an `<MD2Instances>` crowd made without them).
   */
  | 'UNSUPPORTED'

export interface MD2ErrorDetails {
  /** The file part: `header`, `skins`, `st`, `triangles`, `frames`, `glcmds`, `pcx`, ... */
  section?: string
  /** Byte offset in the file where the problem was found. */
  offset?: number
  /** The file name or URL, when known. */
  file?: string
  /** The underlying error (a failed fetch, for example). */
  cause?: unknown
}

export class MD2Error extends Error {
  readonly code: MD2ErrorCode
  readonly section: string | undefined
  readonly offset: number | undefined
  readonly file: string | undefined
  /** The message without the location prefix. */
  readonly reason: string

  constructor(code: MD2ErrorCode, message: string, details: MD2ErrorDetails = {}) {
    super(formatMessage(message, details), details.cause === undefined ? undefined : { cause: details.cause })
    this.name = 'MD2Error'
    this.code = code
    this.section = details.section
    this.offset = details.offset
    this.file = details.file
    this.reason = message
  }

  /** A copy of this error that names `file` (used when a loader learns the URL after parsing failed). */
  withFile(file: string): MD2Error {
    if (this.file !== undefined) return this
    return new MD2Error(this.code, this.reason, {
      section: this.section,
      offset: this.offset,
      file,
      cause: this.cause,
    })
  }
}

function formatMessage(message: string, { section, offset, file }: MD2ErrorDetails): string {
  const where: string[] = []
  if (file !== undefined) where.push(file)
  if (section !== undefined) where.push(offset !== undefined ? `${section} at offset ${offset}` : section)
  else if (offset !== undefined) where.push(`offset ${offset}`)
  return where.length > 0 ? `${where.join(', ')}: ${message}` : message
}

export function isMD2Error(error: unknown): error is MD2Error {
  return error instanceof MD2Error
}
