import {
  AnimationMixer,
  BufferAttribute,
  BufferGeometry,
  Vector3,
  type AnimationClip,
  type Material,
  type Mesh,
  type Object3D,
  type Texture,
} from 'three'
import { MD2Error } from '../../core/MD2Error.js'
import { ENGINE_LIMITS, MAX_FRAME_NAME_LENGTH, MAX_SKIN_NAME_LENGTH, QUAKE2_FPS } from '../../core/format/spec.js'
import type { MD2AnimationDef, MD2ModelData } from '../../core/format/types.js'
import { md2FromGeometry } from './md2FromGeometry.js'

export interface BakeMD2Options {
  /** Frames per second each clip is sampled at, from its start to its end (default 10, Quake II's rate). */
  fps?: number
  /** The clips to bake, by name, in this order (default: every clip given, in its order). */
  clips?: readonly string[]
  /** The meshes to bake, by their name or an ancestor's (default: every visible mesh). */
  meshes?: readonly string[]
  /** Multiplies the scene's positions (MD2 stores any size; Quake II's players stand about 56 units tall). */
  scale?: number
  /** The skin size st is measured in (default: the base-colour map's image size, else 256 × 256). */
  skinWidth?: number
  skinHeight?: number
  /** Skin paths written in the model, at most 63 bytes each. */
  skins?: readonly string[]
  /** Kept as `model.name`. */
  name?: string
  /** Told what is baked differently from what three draws (a second texture, a mesh without uvs). */
  onWarning?: (message: string) => void
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
}

function refuse(message: string, section: string): never {
  throw new MD2Error('UNWRITABLE', message, { section })
}

/** Past one of Quake II's limits: the count, the excess, the limit, and what to do about it. */
function overLimit(what: 'vertices' | 'triangles' | 'frames', count: number, advice: string, section = what): never {
  const limit = ENGINE_LIMITS[what]
  refuse(`${count} ${what}, ${count - limit} past MD2's ${limit} (Quake II's limit): ${advice}`, section)
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

/**
 * Frame names: the clip's name in letters, digits and `_` (ending in `_` after a digit, so that the frame
 * number stays apart), then the frame number, 1-based, within 15 bytes. Equal names get `_2`, `_3`.
 */
function frameBases(names: readonly string[], counts: readonly number[]): string[] {
  const used = new Set<string>()
  return names.map((name, c) => {
    const digits = Math.max(2, String(counts[c]!).length)
    let base = name.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '') || 'clip'
    const fit = (text: string, suffix: string) => {
      let cut = text.slice(0, MAX_FRAME_NAME_LENGTH - digits - suffix.length).replace(/_+$/, '') + suffix
      if (/\d$/.test(cut)) cut = cut.slice(0, MAX_FRAME_NAME_LENGTH - digits - 1) + '_'
      return cut
    }
    let candidate = fit(base, '')
    for (let n = 2; used.has(candidate.replace(/_+$/, '').toLowerCase()); n++) candidate = fit(base, `_${n}_`)
    base = candidate
    used.add(base.replace(/_+$/, '').toLowerCase())
    return base
  })
}

interface Part {
  mesh: Mesh
  count: number
  index: ArrayLike<number>
}

function collectParts(scene: Object3D, names: readonly string[] | undefined): Part[] {
  const parts: Part[] = []
  const found = new Set<string>()
  scene.traverseVisible((object) => {
    const mesh = object as Mesh
    if (!mesh.isMesh) return
    if (names) {
      let named = false
      for (let node: Object3D | null = mesh; node && !named; node = node.parent)
        if (names.includes(node.name)) {
          named = true
          found.add(node.name)
        }
      if (!named) return
    }
    const position = mesh.geometry.getAttribute('position')
    if (!position) return
    const index = mesh.geometry.getIndex()
    parts.push({
      mesh,
      count: position.count,
      index: index ? (index.array as ArrayLike<number>) : Uint32Array.from({ length: position.count }, (_, i) => i),
    })
  })
  const missing = names?.filter((name) => !found.has(name)) ?? []
  if (missing.length > 0) badOption(`no visible mesh is named ${missing.map((name) => `"${name}"`).join(', ')}`)
  if (parts.length === 0) throw new MD2Error('EMPTY', 'the scene holds no visible mesh', { section: 'meshes' })
  return parts
}

function pickClips(clips: readonly AnimationClip[], names: readonly string[] | undefined): AnimationClip[] {
  if (!names) return [...clips]
  return names.map((name) => {
    const clip = clips.find((c) => c.name === name)
    if (!clip) badOption(`no clip is named "${name}" (the clips: ${clips.map((c) => `"${c.name}"`).join(', ') || 'none'})`)
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

/** Distinct positions, the fewest vertices the model can have once welded (as `md2FromGeometry` welds). */
function distinctPositions(positions: Float32Array): number {
  const seen = new Set<string>()
  for (let i = 0; i < positions.length; i += 3) seen.add(`${positions[i]} ${positions[i + 1]} ${positions[i + 2]}`)
  return seen.size
}

/**
 * Bakes an animated glTF scene (three's `gltf.scene` and `gltf.animations`) to an MD2 model: every visible
 * mesh (skinned, morphed, or rigid under a bone) merged into one, placed where the scene's node transforms
 * put it; each clip played by three's own `AnimationMixer` and skinned by three's own `SkinnedMesh` code
 * (`getVertexPosition`), sampled at `fps` from 0 to its end. Frames are named after their clip (`run01`,
 * `run02`, …) so that the library and Quake II group one animation per clip, and written as
 * `md2FromGeometry` writes them (welded, qdata's quantization and normals, GL commands).
 *
 * MD2's limits are checked before sampling, and refused with an `MD2Error` `UNWRITABLE` naming the limit
 * and the excess: 2,048 vertices and 4,096 triangles (Quake II's engine limits: simplify the mesh),
 * 512 frames (the message gives a rate that fits, or bake fewer clips), 15-byte frame names (made to
 * fit) and 63-byte skin paths. Unknown clip or mesh names and bad options are `BAD_ARGUMENT`.
 *
 * The scene is left in the pose it had. Without clips, its current pose is the one frame (`pose01`).
 */
export function bakeMD2(scene: Object3D, clips: readonly AnimationClip[], options: BakeMD2Options = {}): BakedMD2 {
  const fps = options.fps ?? QUAKE2_FPS
  const scale = options.scale ?? 1
  if (!(fps > 0 && fps <= 1000)) badOption(`fps ${fps} is not a rate from above 0 to 1000`)
  if (!(Number.isFinite(scale) && scale > 0)) badOption(`scale ${scale} is not a positive number`)
  const warn = options.onWarning ?? (() => {})
  for (const skin of options.skins ?? []) {
    const bytes = new TextEncoder().encode(skin).length
    if (bytes > MAX_SKIN_NAME_LENGTH)
      refuse(`skin path "${skin}" is ${bytes} bytes, ${bytes - MAX_SKIN_NAME_LENGTH} past MD2's ${MAX_SKIN_NAME_LENGTH}`, 'skins')
  }

  scene.updateMatrixWorld(true)
  const parts = collectParts(scene, options.meshes)
  const baked = pickClips(clips, options.clips)

  // Limits, before any sampling.
  const triangles = parts.reduce((sum, part) => sum + Math.floor(part.index.length / 3), 0)
  const simplify = `simplify the mesh${parts.length > 1 ? ', or bake fewer meshes' : ''}`
  if (triangles > ENGINE_LIMITS.triangles) overLimit('triangles', triangles, simplify)
  const durations = baked.map((clip) => Math.max(0, clip.duration))
  const counts = durations.map((duration) => frameCount(duration, fps))
  const frames = Math.max(
    1,
    counts.reduce((sum, count) => sum + count, 0),
  )
  if (frames > ENGINE_LIMITS.frames) {
    const rate = fittingFps(durations, fps, ENGINE_LIMITS.frames)
    const fits = rate > 0 ? `a rate of ${rate} fps fits them, ` : ''
    overLimit('frames', frames, `${fits}or bake fewer clips (${baked.length} clip${baked.length === 1 ? '' : 's'} at ${fps} fps)`)
  }

  const vertexCount = parts.reduce((sum, part) => sum + part.count, 0)
  const vertex = new Vector3()
  const sample = (): Float32Array => {
    const out = new Float32Array(vertexCount * 3)
    let at = 0
    for (const { mesh, count } of parts) {
      for (let i = 0; i < count; i++, at += 3) {
        // Morph targets, then skinning, as three's vertex shader applies them; then the node transforms.
        mesh.getVertexPosition(i, vertex).applyMatrix4(mesh.matrixWorld).multiplyScalar(scale)
        out[at] = vertex.x
        out[at + 1] = vertex.y
        out[at + 2] = vertex.z
      }
    }
    return out
  }

  const first = sample()
  const least = distinctPositions(first)
  if (least > ENGINE_LIMITS.vertices) overLimit('vertices', least, simplify, 'frames')

  // The skin: the first baked mesh's base-colour map; st are measured on it.
  let skinTexture: Texture | undefined
  const materialsOf = (mesh: Mesh) => (Array.isArray(mesh.material) ? mesh.material : [mesh.material]) as Material[]
  for (const { mesh } of parts)
    for (const material of materialsOf(mesh)) {
      const map = (material as { map?: Texture | null }).map
      if (map && !skinTexture) skinTexture = map
      else if (map && map !== skinTexture && map.source !== skinTexture?.source)
        warn(
          `"${mesh.name || material.name}" has a base-colour map of its own; MD2 has one skin, so its texture coordinates land on the first one's`,
        )
    }
  const image = skinTexture?.image as { width?: number; height?: number } | undefined
  const skinWidth = options.skinWidth ?? (image?.width || 256)
  const skinHeight = options.skinHeight ?? (image?.height || 256)
  // glTF's uvs run down the image (its textures are not flipped); three's own textures flip theirs.
  const vDown = skinTexture ? !skinTexture.flipY : true

  const index = new Uint32Array(triangles * 3)
  const uv = new Float32Array(vertexCount * 2)
  let corner = 0
  let offset = 0
  // The map's own transform (offset, repeat, rotation; glTF's KHR_texture_transform) applies before sampling.
  if (skinTexture?.matrixAutoUpdate) skinTexture.updateMatrix()
  const mapped = new Vector3()
  for (const { mesh, count, index: own } of parts) {
    const uvs = mesh.geometry.getAttribute('uv')
    if (!uvs) warn(`"${mesh.name}" has no texture coordinates: its vertices take the skin's top-left texel`)
    const onSkin = materialsOf(mesh).some((material) => (material as { map?: Texture | null }).map === skinTexture)
    const transform = skinTexture && onSkin ? skinTexture.matrix : undefined
    for (let i = 0; i < count; i++) {
      mapped.set(uvs ? uvs.getX(i) : 0, uvs ? uvs.getY(i) : 0, 1)
      if (transform) mapped.applyMatrix3(transform)
      uv[(offset + i) * 2] = mapped.x
      // md2FromGeometry takes three's convention, v up.
      uv[(offset + i) * 2 + 1] = vDown ? 1 - mapped.y : mapped.y
    }
    for (let c = 0; c < Math.floor(own.length / 3) * 3; c++) index[corner++] = own[c]! + offset
    offset += count
  }

  // Sampling through three's mixer: one clip at a time, at exact times (the action's own clock is set).
  const positions: Float32Array[] = []
  const bases = frameBases(
    baked.map((clip) => clip.name),
    counts,
  )
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
        for (let k = 0; k < counts[c]!; k++) {
          action.time = Math.min(k / fps, durations[c]!)
          mixer.update(0)
          scene.updateMatrixWorld(true)
          positions.push(sample())
          names.push(bases[c]! + String(k + 1).padStart(digits, '0'))
        }
        // Stopping gives the bindings back their pose from before, for the next clip.
        action.stop()
        const name = bases[c]!.replace(/_+$/, '')
        animations.push({ name, start, end: positions.length - 1, fps })
        clipFrames.push({ clip: clip.name, animation: name, start, end: positions.length - 1 })
      })
    } finally {
      mixer.stopAllAction()
      mixer.uncacheRoot(scene)
      scene.updateMatrixWorld(true)
    }
  }

  const geometries = positions.map((frame, f) => {
    const geometry = new BufferGeometry()
    geometry.setAttribute('position', new BufferAttribute(frame, 3))
    if (f === 0) {
      geometry.setIndex(new BufferAttribute(index, 1))
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
  if (model.header.numVertices > ENGINE_LIMITS.vertices) overLimit('vertices', model.header.numVertices, simplify, 'frames')
  return { model, clips: clipFrames, skinTexture }
}
