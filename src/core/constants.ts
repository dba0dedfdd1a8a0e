/** "IDP2" read as a little-endian int32. */
export const MD2_IDENT = 844121161
export const MD2_VERSION = 8

export const HEADER_SIZE = 68
export const SKIN_NAME_SIZE = 64
export const ST_SIZE = 4
export const TRIANGLE_SIZE = 12
export const FRAME_HEADER_SIZE = 40
export const FRAME_NAME_SIZE = 16
export const VERTEX_SIZE = 4

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
