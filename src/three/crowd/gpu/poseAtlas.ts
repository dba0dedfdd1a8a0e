import { DataTexture, NearestFilter, RGBAIntegerFormat, UnsignedIntType, type WebGLProgramParametersWithUniforms } from 'three'
import { blendPoseYUp, blendVerticesYUp, type BlendTarget } from '../../../core/animation/blendVertices.js'
import { CROWD_POSE_STRIDE, readCrowdPose } from '../../../core/animation/CrowdClock.js'
import { createPose } from '../../../core/animation/pose.js'
import type { MD2ModelData } from '../../../core/format/types.js'
import type { CrowdAtlasDecode } from '../../materials/gpuDecodeGLSL.js'
import type { CrowdShaderState } from './CrowdShaderState.js'
import { RANGE } from './rowLayout.js'

/** The widest atlas row, in texels (every WebGL2 implementation takes 4,096). */
const MOST_TEXELS_PER_ROW = 4096
/** Oct-encoded normals: 16 bits a coordinate, both in one texel's 32-bit w. */
const OCT_STEPS = 65535

/** Floats of a crowd pose that say what it shows: from, to, t, the fade's weight, from, to and t. */
const POSE_KEY = 7

/**
 * The poses of the instances drawn this frame, worked out on the CPU (`pose`: asked, or `"auto"` on a renderer
 * drawing in software) by the kernel `<MD2Model>` and the crowd's queries use, for the GLSL decode to read: one
 * RGBA32UI texel per model vertex per pose (the float bits of x, y, z Y-up, and the blended normal oct-encoded,
 * 16 bits a coordinate: finer than a float's exact integers hold, which large faces show), the poses in rows of
 * `slotsPerRow`. Instances showing the same pose (started together, at one speed) share its slot: it is blended
 * once. Each posed row says where its slot lies (`place`), and its copies in the shell and shadow layers with it.
 * The GLSL decode then reads one texel instead of two keyframes, their table entries and normals: where every
 * vertex is shaded on the CPU, that is most of a crowd's cost over drawing a static mesh. Uploaded once a frame,
 * the rows in use. Grows with the poses drawn (never past the texture's largest side); allocates nothing per frame.
 */
export class PoseAtlas {
  /** The decode's part reading it (`CrowdShaderState.atlas` while it holds every pose drawn). */
  readonly decode: CrowdAtlasDecode = { patch: patchAtlasDecode }
  readonly slotsPerRow: number
  private readonly width: number
  private readonly vertices: number
  private readonly maxRows: number
  /** The texels as words (the normals), and the same memory as floats (the positions). */
  private words = new Uint32Array(0)
  private floats = new Float32Array(0)
  private rows = 0
  private texture: DataTexture | undefined
  /** Slots written this frame. */
  private used = 0
  /** Every pose this frame found a slot (else the decode reads the keyframes: the atlas is full). */
  holdsAll = true
  /** Each slot's pose (`POSE_KEY` floats), and a hash table of slots by pose (-1: empty), for this frame. */
  private keys = new Float64Array(0)
  private table = new Int32Array(0)
  private mask = 15
  private readonly pose = createPose(0)
  /** Each texture row's upload range, kept: three.js empties the texture's list after each upload. */
  private ranges: { start: number; count: number }[] = []
  private readonly target: Required<Pick<BlendTarget, 'xyzIndex' | 'positions' | 'normals'>>

  constructor(
    private readonly model: MD2ModelData,
    private readonly state: CrowdShaderState,
    maxTextureSize: number,
  ) {
    const vertices = (this.vertices = model.header.numVertices)
    const side = Math.min(maxTextureSize, MOST_TEXELS_PER_ROW)
    this.slotsPerRow = Math.max(1, Math.floor(side / vertices))
    this.width = this.slotsPerRow * vertices
    this.maxRows = maxTextureSize
    const xyzIndex = new Uint16Array(vertices)
    for (let v = 0; v < vertices; v++) xyzIndex[v] = v
    this.target = { xyzIndex, positions: new Float32Array(vertices * 3), normals: new Float32Array(vertices * 3) }
  }

  /**
   * A frame's start: room for `drawn` poses (more rows when needed, a quarter more than asked), none written yet.
   * Past the texture's largest side, the poses that do not fit are left to the decode (`place`: `holdsAll` false).
   */
  begin(drawn: number): void {
    this.used = 0
    this.holdsAll = true
    // Whole numbers only on this once-a-frame path (V8 boxes a fraction in code it has not optimized yet).
    if (drawn > this.rows * this.slotsPerRow && this.rows < this.maxRows) {
      const needed = Math.min(Math.ceil(drawn / this.slotsPerRow), this.maxRows)
      this.rows = Math.min(this.maxRows, Math.max(needed, Math.ceil(this.rows * 1.25)))
      this.words = new Uint32Array(this.width * this.rows * 4)
      this.floats = new Float32Array(this.words.buffer)
      this.keys = new Float64Array(this.rows * this.slotsPerRow * POSE_KEY)
      this.ranges = Array.from({ length: this.rows }, (_, row) => ({ start: row * this.width * 4, count: this.width * 4 }))
      this.texture?.dispose()
      const texture = wordTexture(this.words, this.width, this.rows)
      this.texture = texture
      this.state.uniforms.md2PoseAtlas.value = texture
    }
    // Twice the poses at most, a power of two: probes stay short.
    let size = 16
    while (size < 2 * drawn) size *= 2
    if (this.table.length < size) this.table = new Int32Array(size)
    const table = this.table
    for (let h = 0; h < size; h++) table[h] = -1
    this.mask = size - 1
  }

  /**
   * Places the pose at `poses`' slot `i` (a `CrowdClock`'s) in the atlas and says where in posed row `a` of `rows`
   * (its `RANGE`'s x: the slot's first texel, its z: the slot's texture row): the slot an instance showing the same
   * pose took this frame, or a new one, blended now. Nothing where the atlas is full (`holdsAll` false).
   */
  place(poses: Float64Array, i: number, rows: Float32Array, a: number): void {
    const at = i * CROWD_POSE_STRIDE
    let hash = 0
    for (let j = 0; j < POSE_KEY; j++) {
      scratch[0] = poses[at + j]!
      hash = Math.imul(hash ^ scratchWords[0]! ^ scratchWords[1]!, 0x9e3779b1)
    }
    const table = this.table
    const keys = this.keys
    let slot = -1
    for (let h = (hash ^ (hash >>> 15)) & this.mask; slot < 0; h = (h + 1) & this.mask) {
      const found = table[h]!
      if (found < 0) {
        if (this.used >= this.rows * this.slotsPerRow) {
          this.holdsAll = false
          return
        }
        slot = this.used++
        table[h] = slot
        for (let j = 0; j < POSE_KEY; j++) keys[slot * POSE_KEY + j] = poses[at + j]!
        this.write(slot, poses, i)
        break
      }
      let same = true
      for (let j = 0; j < POSE_KEY && same; j++) same = keys[found * POSE_KEY + j] === poses[at + j]
      if (same) slot = found
    }
    const row = Math.floor(slot / this.slotsPerRow)
    rows[a + RANGE] = (slot - row * this.slotsPerRow) * this.vertices
    rows[a + RANGE + 2] = row
  }

  /** Blends the pose at `poses`' slot `i` into atlas slot `k`. */
  private write(k: number, poses: Float64Array, i: number): void {
    const pose = readCrowdPose(poses, i, this.pose)
    const target = this.target
    if (pose.fadeWeight > 0) blendPoseYUp(this.model, pose, target)
    else blendVerticesYUp(this.model, pose, target)
    const { positions, normals } = target
    const floats = this.floats
    const words = this.words
    const row = Math.floor(k / this.slotsPerRow)
    let o = (row * this.width + (k - row * this.slotsPerRow) * this.vertices) * 4
    for (let v = 0, p = 0; v < this.vertices; v++, p += 3, o += 4) {
      floats[o] = positions[p]!
      floats[o + 1] = positions[p + 1]!
      floats[o + 2] = positions[p + 2]!
      // Its octahedral coordinates (its length is not kept: the shader normalizes the normal it transforms).
      const x = normals[p]!
      const y = normals[p + 1]!
      const z = normals[p + 2]!
      const sum = Math.abs(x) + Math.abs(y) + Math.abs(z) || 1
      let u = x / sum
      let w = y / sum
      if (z < 0) {
        const was = u
        u = (1 - Math.abs(w)) * (was >= 0 ? 1 : -1)
        w = (1 - Math.abs(was)) * (w >= 0 ? 1 : -1)
      }
      // An int32 from `|`, stored as the word it is (no number past 2^30 is made: V8 would box it).
      words[o + 3] = Math.round((u * 0.5 + 0.5) * OCT_STEPS) | (Math.round((w * 0.5 + 0.5) * OCT_STEPS) << 16)
    }
  }

  /** Uploads the rows holding this frame's poses. */
  commit(): void {
    const texture = this.texture
    if (!texture || this.used === 0) return
    let rows = 0
    for (let held = 0; held < this.used; held += this.slotsPerRow) rows++
    // The rows in use, a range each (three.js uploads a range as one texture row), while they are at most half
    // the texture; else all of it, as three.js releases without texture update ranges do.
    const list = (texture as { updateRanges?: { start: number; count: number }[] }).updateRanges
    if (list) {
      // In place: emptied (`length = 0`), an array gives up its storage and takes new storage on the next push.
      const ranged = 2 * rows <= this.rows ? rows : 0
      for (let row = 0; row < ranged; row++) list[row] = this.ranges[row]!
      list.length = ranged
    }
    texture.needsUpdate = true
  }

  dispose(): void {
    this.texture?.dispose()
  }
}

/** A pose's float, read as its two words for the hash. */
const scratch = new Float64Array(1)
const scratchWords = new Int32Array(scratch.buffer)

/**
 * The GLSL decode's part reading the atlas (`decodeInGLSL`: `md2FromAtlas` in place of the keyframes' decode), patched
 * into the programs of a crowd reading it alone. `md2FromAtlas`: vertex `v` of the row's slot (`RANGE`'s
 * x and z), its position and normal (`md2OctNormal`); returns the normal index of the frame blended towards, which
 * a shell and Quake II light read (from the frames texture: the atlas keeps the blended normal).
 */
const ATLAS_DECLARATIONS = /* glsl */ `
uniform highp usampler2D md2PoseAtlas;
vec3 md2OctNormal(uint packed) {
vec2 e = vec2(float(packed & 65535u), float(packed >> 16u)) * (2.0 / 65535.0) - 1.0;
vec3 n = vec3(e, 1.0 - abs(e.x) - abs(e.y));
if (n.z < 0.0) n.xy = (1.0 - abs(n.yx)) * vec2(n.x >= 0.0 ? 1.0 : -1.0, n.y >= 0.0 ? 1.0 : -1.0);
return n;
}
float md2FromAtlas(int v) {
uvec4 e = texelFetch(md2PoseAtlas, ivec2(int(md2Range.x) + v, int(md2Range.z)), 0);
md2Position = uintBitsToFloat(e.xyz);
#ifdef MD2_NORMALS
md2ObjectNormal = md2OctNormal(e.w);
#endif
#if defined(MD2_SHELL) || defined(MD2_QUAKE2_LIGHT)
return md2Texel(md2Place(md2Clock.y), v).w;
#else
return 0.0;
#endif
}
`

function patchAtlasDecode(shader: WebGLProgramParametersWithUniforms): void {
  const anchor = 'void md2Decode() {'
  // As `placeOnTagGLSL`: a missing anchor would draw nothing right, silently (the decode changed under this patch).
  if (!shader.vertexShader.includes(anchor)) throw new Error(`patchAtlasDecode: the decode has no ${JSON.stringify(anchor)}`)
  shader.vertexShader = `#define MD2_POSE_ATLAS\n${shader.vertexShader.replace(anchor, ATLAS_DECLARATIONS + anchor)}`
}

/** An RGBA32UI texture of `words`, read texel by texel. */
function wordTexture(words: Uint32Array, width: number, height: number): DataTexture {
  const texture = new DataTexture(words, width, height, RGBAIntegerFormat, UnsignedIntType)
  texture.internalFormat = 'RGBA32UI'
  texture.magFilter = texture.minFilter = NearestFilter
  texture.generateMipmaps = false
  texture.needsUpdate = true
  return texture
}
