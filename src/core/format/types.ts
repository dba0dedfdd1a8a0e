/** The 68-byte MD2 header, field for field, in camelCase. */
export interface MD2Header {
  ident: number
  version: number
  skinWidth: number
  skinHeight: number
  /** Bytes per frame: 40 + 4 × numVertices (more when a tool padded frames). */
  frameSize: number
  numSkins: number
  numVertices: number
  numST: number
  numTris: number
  /** Number of 32-bit words in the GL command stream (terminator included). */
  numGlCmds: number
  numFrames: number
  offsetSkins: number
  offsetST: number
  offsetTris: number
  offsetFrames: number
  offsetGlCmds: number
  offsetEnd: number
}

/**
 * One keyframe, still quantized: `vertices` holds `numVertices × 4` bytes (x, y, z, normal index),
 * a view on the file's own bytes. Position = v × scale + translate, Quake II coordinates (Z up).
 */
export interface MD2Frame {
  name: string
  scale: readonly [number, number, number]
  translate: readonly [number, number, number]
  vertices: Uint8Array
}

/**
 * One GL command: a triangle strip or fan. Its vertices live in the model's `glCommandData` words,
 * 3 words each from `start`: s and t as float bits (read them from `glCommandFloats`), then the
 * vertex index.
 */
export interface MD2GlCommand {
  mode: 'strip' | 'fan'
  /** Word index of the first vertex in `glCommandData` / `glCommandFloats`. */
  start: number
  vertexCount: number
}

/** A named run of keyframes, inclusive at both ends. */
export interface MD2Animation {
  name: string
  start: number
  end: number
  /** Keyframes per second (Quake II ticks at 10 Hz). */
  fps: number
  /** Where it came from: grouped from frame names, the Quake II player table, or a caller's table. */
  source?: 'names' | 'quake2' | 'table'
}

/** An animation as a caller may write it: `fps` defaults to 10. */
export interface MD2AnimationDef {
  name: string
  start: number
  end: number
  fps?: number
}

export interface MD2ModelData {
  /** The file name or URL, when the caller gave one. */
  name?: string
  header: MD2Header
  /** Skin paths as written in the file (`players/ogro/igdosh.pcx`). */
  skins: string[]
  /** Texture coordinates in texels: s0, t0, s1, t1, ... (`numST × 2`). Divide by skinWidth/skinHeight. */
  st: Int16Array
  /**
   * Triangles, 6 numbers each: the 3 vertex (xyz) indices then the 3 st indices, in file order
   * (clockwise seen from outside, Quake II's winding).
   */
  triangles: Uint16Array
  /**
   * The keyframes as objects (`name`, `scale`, `translate`, a `vertices` view on `frameData`). Built
   * on first read and then kept: a frame object costs ~360 bytes of heap, more than the vertices of a
   * small model, so parsing does not make them and the library's own paths (blending, bounds,
   * animations, rendering) read `frameNames`, `frameTransforms` and `frameData` instead.
   */
  frames: MD2Frame[]
  /** Frame names, one per frame (as read up to the first NUL). */
  frameNames: string[]
  /**
   * Per frame, 6 floats: scale x, y, z then translate x, y, z, the file's float32 values exactly.
   * Position = v × scale + translate.
   */
  frameTransforms: Float32Array
  /**
   * Every frame's bytes as one view, `frameStride` bytes per frame in the file's layout (scale,
   * translate, 16-byte name, then `numVertices × 4` bytes x, y, z, normal index): frame `f`'s
   * vertices start at `f × frameStride + 40`. For a parsed file, a view on the file's own frames section.
   */
  frameData: Uint8Array
  /** Bytes from one frame to the next in `frameData` (the header's `frameSize` for a parsed file). */
  frameStride: number
  /** Decoded GL commands; empty when the file has none or they were dropped as damaged (see warnings). */
  glCommands: MD2GlCommand[]
  /** The raw GL command words as stored (terminator included); empty when none or dropped. */
  glCommandData: Int32Array
  /** The same words read as floats, for the s,t of each command vertex. */
  glCommandFloats: Float32Array
  animations: MD2Animation[]
  /** What was tolerated: engine limits exceeded, damaged parts dropped or clamped. */
  warnings: string[]
}
