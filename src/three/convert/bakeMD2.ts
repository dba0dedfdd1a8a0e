import { AnimationMixer, BufferAttribute, BufferGeometry, Vector3, type AnimationClip, type Mesh, type Object3D, type Texture } from 'three'
import { MD2Error } from '../../core/MD2Error.js'
import { ENGINE_LIMITS, MAX_FRAME_NAME_LENGTH, MAX_SKIN_NAME_LENGTH, QUAKE2_FPS } from '../../core/format/spec.js'
import type { MD2AnimationDef, MD2ModelData } from '../../core/format/types.js'
import type { DecodedImage } from '../../core/images/decodedImage.js'
import { engineSkinSize } from '../../core/images/engineSkin.js'
import { checkBakeArguments, checkClips } from './bakeChecks.js'
import { findClip, frameBaseNote, frameBases, listClips } from './clipNames.js'
import { collectParts, distinctPositions, keepUsed, mergeParts, simplifierAttributes, type BakeSource } from './bakeSource.js'
import { loadedSimplifier } from './loadSimplifier.js'
import { md2FromGeometry } from './md2FromGeometry.js'
import { checkPoint, placeFrames, tipOver } from './placeFrames.js'
import { simplifyMesh } from './simplifyMesh.js'
import { buildSkinAtlas, lookTable, materialsOf } from './skinAtlas.js'

export interface BakeMD2Options {
  /** Frames per second each clip is sampled at, from its start to its end (default 10, Quake II's rate). */
  fps?: number
  /** The clips to bake, by name, in this order (default: every clip given, in its order). */
  clips?: readonly string[]
  /** The meshes to bake, by their name or an ancestor's (default: every visible mesh). */
  meshes?: readonly string[]
  /** The meshes not to bake, by their name or an ancestor's (a player's weapon, baked apart). */
  excludeMeshes?: readonly string[]
  /** Multiplies the scene's positions (MD2 stores any size; Quake II's players stand about 56 units tall). */
  scale?: number
  /** The first frame's height (its extent up) in units, proportions kept: a scale worked out, not with `scale`. */
  height?: number
  /**
   * Where the model stands (MD2's axes: x forward, y left, z up): the first frame's lowest point (its feet) at
   * height z, the scene's origin across at x, y (Quake II's players: 0, 0, -24). Default: where the scene has it.
   */
  origin?: readonly [number, number, number]
  /** Moves every frame by this after scaling (MD2's axes): another bake's `placement` (a player's weapon), not with `origin`. */
  offset?: readonly [number, number, number]
  /** The skin size st is measured in (default: the base-colour map's image size, else 256 × 256). */
  skinWidth?: number
  skinHeight?: number
  /** Skin paths written in the model, at most 63 bytes each. */
  skins?: readonly string[]
  /**
   * Bake every material into one skin (`skinImage`): maps, colour factors, vertex colours (default true). False
   * measures st on the first base-colour map, as a skin of one's own painted on the source's coordinates needs.
   */
  bakeSkin?: boolean
  /**
   * Measure st on the size Quake II loads the skin at: a model's one map's image fitted to the engine's limits
   * (resample the map to the header's size when writing it). An atlas (`skinImage`) is fitted whatever this says.
   */
  fitSkin?: boolean
  /**
   * The frames to sample, in place of every clip from its start at `fps` (`bakePlayerMD2` gives Quake II's player
   * table this way): each animation its name, its clip (by name), the times of its frames (seconds into the
   * clip) and their names. `clips` is then not taken.
   */
  plan?: readonly BakePlanEntry[]
  /** Kept as `model.name`. */
  name?: string
  /** Told what is baked differently from what three draws (a second texture, a mesh without uvs, a clip name cut). */
  onWarning?: (message: string) => void
  /**
   * Simplify the merged mesh with meshoptimizer (`await loadSimplifier()` first): `true` to fit MD2's
   * limits (2,048 vertices, 4,096 triangles) when it does not, a number for at most that many triangles
   * (and within the limits). One topology for every frame, over the bind pose: the kept vertices are
   * source vertices, so every frame is still three's skinning of them.
   */
  simplify?: boolean | number
}

/** One animation of a `plan`: frames `frameNames[k]` sampled from clip `clip` at `times[k]` seconds. */
export interface BakePlanEntry {
  animation: string
  clip: string
  times: readonly number[]
  frameNames: readonly string[]
  /** Per frame, how far the pose is tipped over backwards about its feet, 0 to 1 (lying on the floor): a fall. */
  fall?: readonly number[]
}

export interface BakedMD2 {
  /** The model, ready for `writeMD2`; `model.animations` has one animation per clip, at `fps`. */
  model: MD2ModelData
  /** Which frames each clip became, by the clip's own name. */
  clips: { clip: string; animation: string; start: number; end: number }[]
  /**
   * The base-colour map the st are measured on (the first baked mesh's with one): the skin to write beside
   * the model (`skinImageOf` reads its pixels).
   */
  skinTexture: Texture | undefined
  /**
   * The skin baked from every material (`bakeSkin`): their maps (tinted by their colour factors), colours and
   * vertex colours packed into one image the st are measured on, fitted to the size Quake II loads (or to
   * `skinWidth` × `skinHeight`); RGBA, top row first, for `encodePCX`/`encodeTGA`. Undefined when the model's
   * one look is one untinted map (`skinTexture`, as it is), or with `bakeSkin: false`.
   */
  skinImage?: DecodedImage
  /** What `simplify` did, when it reduced the mesh: triangles and (distinct) vertices, before and after. */
  simplified?: { triangles: [number, number]; vertices: [number, number] }
  /** How the scene's positions became the model's: multiplied by `scale`, then moved by `offset` (MD2's axes). */
  placement: { scale: number; offset: [number, number, number] }
}

function refuse(message: string, section: string): never {
  throw new MD2Error('UNWRITABLE', message, { section })
}

function badOption(message: string): never {
  throw new MD2Error('BAD_ARGUMENT', message, { section: 'options' })
}

/**
 * Frames a clip of `duration` seconds gives at `fps`: its start, then every 1/fps up to its end. glTF keeps
 * times as float32, so an end a thousandth of a frame short still counts as reached.
 */
function frameCount(duration: number, fps: number): number {
  return Math.floor(duration * fps + 1e-3) + 1
}

/** A plan's entries: names that fit, as many names as times, finite times. */
function checkPlan(plan: readonly BakePlanEntry[]): void {
  if (!Array.isArray(plan)) badOption(`plan must be an array of animations, got ${typeof plan}`)
  plan.forEach((entry, i) => {
    const where = `plan[${i}] ("${String(entry?.animation)}")`
    if (typeof entry?.clip !== 'string' || typeof entry.animation !== 'string') badOption(`${where}: needs an animation and a clip name`)
    if (!Array.isArray(entry.times) || entry.times.length === 0 || entry.times.some((t: number) => !Number.isFinite(t)))
      badOption(`${where}: times must be finite seconds, at least one`)
    if (!Array.isArray(entry.frameNames) || entry.frameNames.length !== entry.times.length)
      badOption(`${where}: one frame name per time (${entry.times.length}), got ${entry.frameNames?.length}`)
    for (const name of entry.frameNames)
      if (typeof name !== 'string' || name.length === 0 || new TextEncoder().encode(name).length > MAX_FRAME_NAME_LENGTH)
        badOption(`${where}: frame name "${String(name)}" is not 1 to ${MAX_FRAME_NAME_LENGTH} bytes`)
    if (entry.fall !== undefined && !(Array.isArray(entry.fall) && entry.fall.every((amount: number) => Number.isFinite(amount))))
      badOption(`${where}: fall takes a finite amount per frame`)
  })
}

function pickClips(clips: readonly AnimationClip[], names: readonly string[] | undefined): AnimationClip[] {
  if (!names) return [...clips]
  return names.map((name) => {
    const clip = findClip(clips, name)
    if (!clip) badOption(`no clip is named "${name}" (the clips: ${listClips(clips)})`)
    return clip
  })
}

/** The highest whole rate at which the clips fit in `limit` frames, or 0. */
function fittingFps(durations: readonly number[], fps: number, limit: number): number {
  for (let rate = Math.floor(fps); rate >= 1; rate--) {
    if (rate >= fps) continue
    if (durations.reduce((sum, d) => sum + frameCount(d, rate), 0) <= limit) return rate
  }
  return 0
}

/** MD2's limits the bake passes (Quake II's own), each with the excess; the advice says what fits. */
export function refuseLimits(counts: Record<'vertices' | 'triangles' | 'frames', number>, advice: string[]): never {
  const passed = (['triangles', 'vertices', 'frames'] as const).filter((what) => counts[what] > ENGINE_LIMITS[what])
  const listed = passed.map((what) => `${counts[what]} ${what}, ${counts[what] - ENGINE_LIMITS[what]} past MD2's ${ENGINE_LIMITS[what]}`)
  refuse(`${listed.join('; ')} (Quake II's limit${passed.length > 1 ? 's' : ''}): ${advice.join('; ')}`, passed.join(', '))
}

/** The smallest float32 with full precision: a frame's step below it loses the model. */
const FLOAT32_NORMAL = 1.1754943508222875e-38
const FLOAT32_MAX = 3.4028234663852886e38

/** A scale the frames cannot hold: the model's extent collapsed below float32's steps, or past its range. */
function checkScale(positions: Float32Array, scale: number): void {
  let extent = 0
  let far = 0
  for (let axis = 0; axis < 3; axis++) {
    let low = Infinity
    let high = -Infinity
    for (let i = axis; i < positions.length; i += 3) {
      low = Math.min(low, positions[i]!)
      high = Math.max(high, positions[i]!)
    }
    extent = Math.max(extent, high - low)
    far = Math.max(far, Math.abs(low), Math.abs(high))
  }
  if (extent > 0 && (extent * scale) / 255 < FLOAT32_NORMAL)
    badOption(
      `scale ${scale} collapses the model: its extent of ${extent} becomes ${extent * scale}, below what MD2's float32 frames resolve`,
    )
  if (far * scale > FLOAT32_MAX / 2) badOption(`scale ${scale} puts the model (${far} from the origin) past MD2's float32 range`)
}

/**
 * Each vertex's texture coordinates (u, v) as its map samples them: its geometry's `uv` through the map's own
 * transform (offset, repeat, rotation; glTF's KHR_texture_transform), from `mapOf(mesh, vertex)`; a vertex
 * without coordinates gets (0, 0), said once per mesh.
 */
function mapUVs(
  source: BakeSource,
  mapOf: (mesh: Mesh, vertex: number) => Texture | undefined,
  warn: (message: string) => void,
): Float32Array {
  const out = new Float32Array((source.positions.length / 3) * 2)
  const mapped = new Vector3()
  let at = 0
  for (const { mesh, locals } of source.parts) {
    const uvs = mesh.geometry.getAttribute('uv')
    // Only where a map would be sampled: a mesh without coordinates and without a map is baked by its colours.
    if (!uvs && mapOf(mesh, at)) warn(`"${mesh.name}" has no texture coordinates: its vertices take the skin's top-left texel`)
    for (const i of locals) {
      const map = mapOf(mesh, at)
      if (map?.matrixAutoUpdate) map.updateMatrix()
      mapped.set(uvs ? uvs.getX(i) : 0, uvs ? uvs.getY(i) : 0, 1)
      if (map) mapped.applyMatrix3(map.matrix)
      out[at * 2] = Number.isFinite(mapped.x) ? mapped.x : 0
      out[at * 2 + 1] = Number.isFinite(mapped.y) ? mapped.y : 0
      at++
    }
  }
  return out
}

/**
 * Bakes an animated glTF scene (three's `gltf.scene` and `gltf.animations`) to an MD2 model: every visible
 * mesh (skinned, morphed, or rigid under a bone) merged into one, placed where the scene's node transforms
 * put it; each clip played by three's own `AnimationMixer` and skinned by three's own `SkinnedMesh` code
 * (`getVertexPosition`), sampled at `fps` from 0 to its end. Frames are named after their clip (`run01`,
 * `run02`, …) so that the library and Quake II group one animation per clip, and written as
 * `md2FromGeometry` writes them (welded, qdata's quantization and normals, GL commands). Only the vertices
 * the triangles use are sampled. Clips may come from other files than the scene (Mixamo's one-clip
 * downloads): their tracks are bound by node name, and a node the scene lacks is refused.
 *
 * MD2's limits are checked before sampling: 2,048 vertices, 4,096 triangles and 512 frames (Quake II's
 * engine limits), refused together in one `MD2Error` `UNWRITABLE` naming each limit and its excess, with what
 * fits (`simplify` for the mesh, a rate for the frames); 15-byte frame names are made to fit (each clip name cut
 * told to `onWarning`) and 63-byte
 * skin paths checked. `simplify` (after `await loadSimplifier()`) reduces the mesh with meshoptimizer to
 * fit. Wrong options and unknown clip or mesh names are `BAD_ARGUMENT`; non-finite key times or values,
 * positions or skin weights are `BAD_VALUE`; an index past its own mesh or a joint past its skeleton is
 * `BAD_INDEX`.
 *
 * The scene is left in the pose it had. Without clips, its current pose is the one frame (`pose01`).
 */
export function bakeMD2(scene: Object3D, clips: readonly AnimationClip[], options: BakeMD2Options = {}): BakedMD2 {
  checkBakeArguments(scene, clips, options)
  const fps = options.fps ?? QUAKE2_FPS
  const scale = options.scale ?? 1
  if (!(fps > 0 && fps <= 1000)) badOption(`fps ${fps} is not a rate from above 0 to 1000`)
  if (!(Number.isFinite(scale) && scale > 0)) badOption(`scale ${scale} is not a positive number`)
  const { height } = options
  if (height !== undefined && !(typeof height === 'number' && height > 0 && height <= 1e6))
    badOption(`height ${String(height)} is not a positive number up to 1e6`)
  if (height !== undefined && options.scale !== undefined) badOption('scale and height: give one (height works the scale out)')
  checkPoint('origin', options.origin)
  checkPoint('offset', options.offset)
  if (options.origin && options.offset) badOption('origin and offset: give one (origin works the offset out)')
  const simplifier = options.simplify ? loadedSimplifier() : undefined
  if (options.simplify && !simplifier) badOption('simplify needs meshoptimizer\u2019s simplifier: await loadSimplifier() before baking')
  const warn = options.onWarning ?? (() => {})
  for (const skin of options.skins ?? []) {
    const bytes = new TextEncoder().encode(skin).length
    if (bytes > MAX_SKIN_NAME_LENGTH)
      refuse(`skin path "${skin}" is ${bytes} bytes, ${bytes - MAX_SKIN_NAME_LENGTH} past MD2's ${MAX_SKIN_NAME_LENGTH}`, 'skins')
  }

  scene.updateMatrixWorld(true)
  const parts = collectParts(scene, options.meshes, options.excludeMeshes)
  const plan = options.plan
  if (plan) checkPlan(plan)
  const baked = plan
    ? pickClips(
        clips,
        plan.map((entry) => entry.clip),
      )
    : pickClips(clips, options.clips)
  checkClips(scene, baked)
  const table = options.bakeSkin === false ? undefined : lookTable(parts, warn)
  let source: BakeSource = mergeParts(parts, table?.atlas ? table.triangles : undefined)
  checkScale(source.positions, scale)

  // Limits, before any sampling; the mesh simplified first when asked.
  const durations = baked.map((clip) => Math.max(0, clip.duration))
  const counts = plan ? plan.map((entry) => entry.times.length) : durations.map((duration) => frameCount(duration, fps))
  const frames = Math.max(
    1,
    counts.reduce((sum, count) => sum + count, 0),
  )
  let triangles = source.index.length / 3
  let vertices = distinctPositions(source.positions)
  let simplified: BakedMD2['simplified']
  const wanted = Math.min(ENGINE_LIMITS.triangles, typeof options.simplify === 'number' ? options.simplify : Infinity)
  if (simplifier && (triangles > wanted || vertices > ENGINE_LIMITS.vertices)) {
    const { attributes, same } = simplifierAttributes(source, table?.atlas ? (look) => !table.looks[look]?.map : undefined)
    const index = simplifyMesh(simplifier, {
      index: source.index,
      positions: source.positions,
      attributes,
      same,
      // Each look apart, so that a small part of its own colour keeps its triangles.
      ...(table?.atlas ? { looks: source.looks } : {}),
      triangles: wanted,
      vertices: ENGINE_LIMITS.vertices,
    })
    source = keepUsed(source, index)
    simplified = { triangles: [triangles, index.length / 3], vertices: [vertices, distinctPositions(source.positions)] }
    triangles = simplified.triangles[1]
    vertices = simplified.vertices[1]
  }
  const geometryAdvice = simplified
    ? `simplified from ${simplified.triangles[0]} triangles, the mesh does not fit: ask simplify for fewer triangles${parts.length > 1 ? ', or bake fewer meshes' : ''}`
    : `simplify the mesh (bakeMD2's simplify option, convert's --simplify)${parts.length > 1 ? ', or bake fewer meshes' : ''}`
  const advice: string[] = []
  if (triangles > ENGINE_LIMITS.triangles || vertices > ENGINE_LIMITS.vertices) advice.push(geometryAdvice)
  if (frames > ENGINE_LIMITS.frames) {
    const rate = fittingFps(durations, fps, ENGINE_LIMITS.frames)
    const fits = rate > 0 ? `a rate of ${rate} fps fits them, ` : ''
    advice.push(`${fits}or bake fewer clips (${baked.length} clip${baked.length === 1 ? '' : 's'} at ${fps} fps)`)
  }
  if (advice.length > 0) refuseLimits({ triangles, vertices, frames }, advice)

  const vertexCount = source.positions.length / 3
  const vertex = new Vector3()
  const sample = (when: string): Float32Array => {
    const out = new Float32Array(vertexCount * 3)
    let at = 0
    for (const { mesh, locals } of source.parts) {
      for (const i of locals) {
        // Morph targets, then skinning, as three's vertex shader applies them; then the node transforms.
        mesh.getVertexPosition(i, vertex).applyMatrix4(mesh.matrixWorld).multiplyScalar(scale)
        out[at] = vertex.x
        out[at + 1] = vertex.y
        out[at + 2] = vertex.z
        if (!(Number.isFinite(out[at]) && Number.isFinite(out[at + 1]) && Number.isFinite(out[at + 2])))
          throw new MD2Error('BAD_VALUE', `${when}: mesh "${mesh.name}" vertex ${i} lands at (${vertex.x}, ${vertex.y}, ${vertex.z})`, {
            section: 'frames',
          })
        at += 3
      }
    }
    return out
  }
  const first = sample('the scene as it stands')

  // The skin: every material's look in one image (an atlas), or the one base-colour map as it is.
  const uv = new Float32Array(vertexCount * 2)
  let skinTexture: Texture | undefined
  let skinImage: DecodedImage | undefined
  let skinWidth: number
  let skinHeight: number
  if (table?.atlas) {
    const ranges = table.looks.map(() => Float64Array.of(Infinity, -Infinity, Infinity, -Infinity))
    const mapped = mapUVs(source, (_, v) => table.looks[source.looks[v]!]!.map, warn)
    for (let v = 0; v < vertexCount; v++) {
      const look = table.looks[source.looks[v]!]!
      if (!look.map) continue
      const range = ranges[source.looks[v]!]!
      const s = mapped[v * 2]!
      const t = look.map.flipY ? 1 - mapped[v * 2 + 1]! : mapped[v * 2 + 1]!
      range[0] = Math.min(range[0]!, s)
      range[1] = Math.max(range[1]!, s)
      range[2] = Math.min(range[2]!, t)
      range[3] = Math.max(range[3]!, t)
    }
    const size: [number, number] | undefined =
      options.skinWidth !== undefined && options.skinHeight !== undefined ? [options.skinWidth, options.skinHeight] : undefined
    const atlas = buildSkinAtlas(table, ranges, size, warn)
    const out = { x: 0, y: 0 }
    for (let v = 0; v < vertexCount; v++) {
      atlas.place(source.looks[v]!, mapped[v * 2]!, mapped[v * 2 + 1]!, out)
      uv[v * 2] = out.x
      uv[v * 2 + 1] = out.y
    }
    skinImage = atlas.image
    skinWidth = atlas.image.width
    skinHeight = atlas.image.height
  } else {
    // The first baked mesh's base-colour map; st are measured on it.
    for (const { mesh } of source.parts)
      for (const material of materialsOf(mesh)) {
        const map = (material as { map?: Texture | null } | undefined)?.map
        if (map && !skinTexture) skinTexture = map
        else if (map && map !== skinTexture && map.source !== skinTexture?.source)
          warn(
            `"${mesh.name || material.name}" has a base-colour map of its own; MD2 has one skin, so its texture coordinates land on the first one's`,
          )
      }
    const image = skinTexture?.image as { width?: number; height?: number } | undefined
    const fitted = options.fitSkin && image?.width && image.height ? engineSkinSize(image.width, image.height) : undefined
    skinWidth = options.skinWidth ?? fitted?.[0] ?? (image?.width || 256)
    skinHeight = options.skinHeight ?? fitted?.[1] ?? (image?.height || 256)
    const map = skinTexture
    const onSkin = (mesh: Mesh) => materialsOf(mesh).some((material) => (material as { map?: Texture | null } | undefined)?.map === map)
    const mapped = mapUVs(source, (mesh) => (map && onSkin(mesh) ? map : undefined), warn)
    // glTF's uvs run down the image (its textures are not flipped); three's own textures flip theirs. md2FromGeometry
    // takes three's convention, v up.
    const vDown = map ? !map.flipY : true
    for (let v = 0; v < vertexCount; v++) {
      uv[v * 2] = mapped[v * 2]!
      uv[v * 2 + 1] = vDown ? 1 - mapped[v * 2 + 1]! : mapped[v * 2 + 1]!
    }
  }

  // Sampling through three's mixer: one clip at a time, at exact times (the action's own clock is set).
  const positions: Float32Array[] = []
  // A loader may leave a clip without a name (a glTF animation's name is optional).
  const clipNames = baked.map((clip) => (typeof clip.name === 'string' ? clip.name : ''))
  const bases = frameBases(clipNames, counts)
  // A name cut (or told apart from another's) is said once, naming the clip and what it became.
  if (!plan)
    bases.forEach((base, c) => {
      const note = frameBaseNote(clipNames[c]!, base, counts[c]!)
      if (note) warn(note)
    })
  const animations: MD2AnimationDef[] = []
  const names: string[] = []
  const clipFrames: BakedMD2['clips'] = []
  if (baked.length === 0) {
    positions.push(first)
    names.push('pose01')
  } else {
    const mixer = new AnimationMixer(scene)
    try {
      baked.forEach((clip, c) => {
        const action = mixer.clipAction(clip)
        action.reset().play()
        const start = positions.length
        const digits = Math.max(2, String(counts[c]!).length)
        const entry = plan?.[c]
        for (let k = 0; k < counts[c]!; k++) {
          action.time = Math.min(entry ? Math.max(0, entry.times[k]!) : k / fps, durations[c]!)
          mixer.update(0)
          scene.updateMatrixWorld(true)
          positions.push(sample(`clip "${clip.name}" at ${action.time} s`))
          if (entry?.fall) tipOver(positions[positions.length - 1]!, entry.fall[k] ?? 0)
          names.push(entry ? entry.frameNames[k]! : bases[c]! + String(k + 1).padStart(digits, '0'))
        }
        // Stopping gives the bindings back their pose from before, for the next clip.
        action.stop()
        const name = entry ? entry.animation : bases[c]!.replace(/_+$/, '')
        animations.push({ name, start, end: positions.length - 1, fps })
        clipFrames.push({ clip: clipNames[c]!, animation: name, start, end: positions.length - 1 })
      })
    } finally {
      mixer.stopAllAction()
      mixer.uncacheRoot(scene)
      scene.updateMatrixWorld(true)
    }
  }

  const placement = placeFrames(positions, scale, options)
  const geometries = positions.map((frame, f) => {
    const geometry = new BufferGeometry()
    geometry.setAttribute('position', new BufferAttribute(frame, 3))
    if (f === 0) {
      geometry.setIndex(new BufferAttribute(source.index, 1))
      geometry.setAttribute('uv', new BufferAttribute(uv, 2))
    }
    return geometry
  })
  const model = md2FromGeometry(geometries, {
    skinWidth,
    skinHeight,
    skins: options.skins,
    frameNames: names,
    ...(animations.length > 0 ? { animations } : {}),
    name: options.name,
  })
  // Vertices apart in some frame stay apart: welded, the count can still exceed the limit checked above.
  if (model.header.numVertices > ENGINE_LIMITS.vertices)
    refuseLimits({ triangles, vertices: model.header.numVertices, frames }, [
      `${geometryAdvice} (the welded count: vertices at one place in the bind pose part in some frame)`,
    ])
  return { model, clips: clipFrames, skinTexture, skinImage, placement, ...(simplified ? { simplified } : {}) }
}
