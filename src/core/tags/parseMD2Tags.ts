import { toBytes } from '../bytes.js'
import { MD2Error } from '../MD2Error.js'

/** "JDP2": the first four bytes of a UFO: Alien Invasion tag file. */
const TAG_IDENT = 0x3250444a
const TAG_VERSION = 1
const HEADER_SIZE = 32
/** Each tag name takes 64 bytes, NUL-padded. */
const NAME_SIZE = 64
/** Each tag has, per frame, 12 little-endian floats (a 3 × 4 transform). */
export const FLOATS_PER_TRANSFORM = 12

/**
 * A UFO:AI `.tag` file (the `JDP2` format beside a `body.md2`): named points (`tag_head`,
 * `tag_rweapon`…) with one 3 × 4 transform per tag per frame, in the MD2's own coordinates.
 */
export interface MD2Tags {
  /** The file name or URL, when given. */
  name?: string
  /** Tag names, in file order. */
  names: string[]
  numFrames: number
  /**
   * The transforms, tag-major: tag `i`'s frame `f` is the 12 floats from `(i × numFrames + f) × 12`,
   * as stored in the file.
   */
  transforms: Float32Array
}

function fail(
  code: 'BAD_MAGIC' | 'BAD_VERSION' | 'TRUNCATED' | 'OUT_OF_RANGE' | 'BAD_VALUE',
  message: string,
  section: string,
  offset: number,
  file?: string,
): never {
  throw new MD2Error(code, message, { section, offset, file })
}

/**
 * Reads a `JDP2` tag file strictly: header, counts, offsets and sizes checked against the real length
 * before anything is allocated, names NUL-terminated, every float finite; a coded `MD2Error` otherwise.
 */
export function parseMD2Tags(data: ArrayBuffer | Uint8Array, options: { name?: string } = {}): MD2Tags {
  const file = options.name
  const bytes = toBytes(data, file)
  if (bytes.length < HEADER_SIZE)
    fail('TRUNCATED', `file is ${bytes.length} bytes, the header alone needs ${HEADER_SIZE}`, 'header', 0, file)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const int = (offset: number) => view.getInt32(offset, true)
  if (view.getUint32(0, true) !== TAG_IDENT) fail('BAD_MAGIC', 'not a tag file (the first four bytes are not "JDP2")', 'header', 0, file)
  const version = int(4)
  if (version !== TAG_VERSION) fail('BAD_VERSION', `version ${version} is not ${TAG_VERSION}`, 'header', 4, file)
  const numTags = int(8)
  const numFrames = int(12)
  const ofsNames = int(16)
  const ofsTags = int(20)
  if (numTags < 0 || numFrames < 0) fail('OUT_OF_RANGE', `${numTags} tags × ${numFrames} frames is not a count`, 'header', 8, file)
  if (ofsNames < HEADER_SIZE || ofsNames > bytes.length)
    fail('OUT_OF_RANGE', `names at offset ${ofsNames} lie outside the file (${bytes.length} bytes)`, 'header', 16, file)
  if (ofsTags < HEADER_SIZE || ofsTags > bytes.length)
    fail('OUT_OF_RANGE', `transforms at offset ${ofsTags} lie outside the file (${bytes.length} bytes)`, 'header', 20, file)
  // Sizes in doubles: counts up to 2^31 multiply past 2^32 without wrapping.
  const namesEnd = ofsNames + numTags * NAME_SIZE
  if (namesEnd > bytes.length) {
    fail(
      'TRUNCATED',
      `${numTags} × ${NAME_SIZE}-byte names end at ${namesEnd}, past the end of the data (${bytes.length} bytes)`,
      'names',
      ofsNames,
      file,
    )
  }
  const transformsEnd = ofsTags + numTags * numFrames * FLOATS_PER_TRANSFORM * 4
  if (transformsEnd > bytes.length) {
    fail(
      'TRUNCATED',
      `${numTags} tags × ${numFrames} frames × 48 bytes end at ${transformsEnd}, past the end of the data (${bytes.length} bytes)`,
      'tags',
      ofsTags,
      file,
    )
  }
  const names: string[] = []
  for (let i = 0; i < numTags; i++) {
    const start = ofsNames + i * NAME_SIZE
    const end = bytes.indexOf(0, start)
    if (end < 0 || end >= start + NAME_SIZE)
      fail('OUT_OF_RANGE', `tag name ${i} has no NUL within its ${NAME_SIZE} bytes`, 'names', start, file)
    names.push(String.fromCharCode(...bytes.subarray(start, end)))
  }
  const count = numTags * numFrames * FLOATS_PER_TRANSFORM
  const transforms = new Float32Array(count)
  for (let i = 0; i < count; i++) {
    const value = view.getFloat32(ofsTags + i * 4, true)
    if (!Number.isFinite(value)) fail('BAD_VALUE', `transform value ${i} is ${value}`, 'tags', ofsTags + i * 4, file)
    transforms[i] = value
  }
  return { name: file, names, numFrames, transforms }
}

/** The index of the tag called `name` (compared exactly, as UFO:AI does), or -1. */
export function findTag(tags: MD2Tags, name: string): number {
  return tags.names.indexOf(name)
}
