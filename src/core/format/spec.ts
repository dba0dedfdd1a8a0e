/**
 * The MD2 format as the Quake II sources define it (qfiles.h): the one statement of its layout,
 * record sizes and limits that the parser, writer, builder, quantizer and inspector all read.
 */

/** "IDP2" read as a little-endian int32. */
export const MD2_IDENT = 844121161
export const MD2_VERSION = 8

/** The 17 little-endian int32 header fields, in file order (field i at byte 4 × i). */
export const HEADER_FIELDS = [
  'ident',
  'version',
  'skinWidth',
  'skinHeight',
  'frameSize',
  'numSkins',
  'numVertices',
  'numST',
  'numTris',
  'numGlCmds',
  'numFrames',
  'offsetSkins',
  'offsetST',
  'offsetTris',
  'offsetFrames',
  'offsetGlCmds',
  'offsetEnd',
] as const
export type HeaderField = (typeof HEADER_FIELDS)[number]

export const HEADER_SIZE = 68
export const SKIN_NAME_SIZE = 64
export const ST_SIZE = 4
export const TRIANGLE_SIZE = 12
export const FRAME_HEADER_SIZE = 40
export const FRAME_NAME_SIZE = 16
export const VERTEX_SIZE = 4

/** The largest index a uint16 triangle field can hold, so the most vertices or st an MD2 can address. */
export const MAX_MD2_INDEXED = 65535
/** Longest names that still leave room for the terminating NUL. */
export const MAX_FRAME_NAME_LENGTH = FRAME_NAME_SIZE - 1
export const MAX_SKIN_NAME_LENGTH = SKIN_NAME_SIZE - 1

/**
 * Quake II's engine limits. Real files exceed them (1,007 frames, 11,838 st entries seen) and other
 * engines load them, so the parser warns rather than refuses.
 */
export const ENGINE_LIMITS = {
  triangles: 4096,
  vertices: 2048,
  st: 2048,
  frames: 512,
  skins: 32,
  skinHeight: 480,
} as const

/** Keyframes per second of the Quake II server tick. */
export const QUAKE2_FPS = 10
