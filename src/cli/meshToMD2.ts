import { Matrix3, Matrix4, type BufferAttribute, type BufferGeometry, type InterleavedBufferAttribute, type Mesh } from 'three'
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js'
import { MD2Error } from '../core/MD2Error.js'
import { printable } from '../core/printable.js'
import { parseMD2 } from '../core/format/parseMD2.js'
import { ENGINE_LIMITS } from '../core/format/spec.js'
import type { MD2AnimationDef } from '../core/format/types.js'
import { writeMD2 } from '../core/format/writeMD2.js'
import type { GLBContents } from '../core/gltf/glb.js'
import { refuseLimits } from '../three/convert/bakeMD2.js'
import { fitFrameNames } from '../three/convert/clipNames.js'
import { md2FromGeometry } from '../three/convert/md2FromGeometry.js'
import type { CliIO } from './common.js'
import { engineLimitsLine, fitHeaderSkin, withLimitsLine } from './fitEngine.js'
import { imageBytesOf, loadGLTF } from './readInputs.js'
import type { OutputFile } from './writeOutputs.js'

/**
 * A mesh taken as it is (no bake): an OBJ's one frame, or a glTF mesh whose morph targets are the frames and
 * whose clips stepping through them the animations. No skin is written (a texture or material it names is
 * said to be left out); st are measured in `--skin-size`, else the texture's size fitted to Quake II, else
 * 256 × 256. Past Quake II's vertex, triangle or frame limit it is refused as a bake is (MD2Error
 * UNWRITABLE, with what fits), unless `noEngineLimits` (`--no-engine-limits`): then written, the limits said.
 */
export async function meshToMD2(
  input: string,
  source: { obj: Uint8Array } | { gltf: GLBContents },
  output: string,
  { skinSize, noEngineLimits }: { skinSize: [number, number] | undefined; noEngineLimits: boolean },
  io: CliIO,
): Promise<{ files: OutputFile[]; summary: string; warnings: string[] }> {
  const mesh = 'obj' in source ? meshFromOBJ(input, source.obj) : await meshFromGLTF(input, source.gltf, io)
  for (const texture of mesh.unused) io.stderr(`${input}: warning: ${printable(texture)}\n`)
  const [skinWidth, skinHeight] = skinSize ?? fitHeaderSkin(mesh.imageSize)
  const model = md2FromGeometry(mesh.geometry, {
    skinWidth,
    skinHeight,
    frameNames: mesh.frameNames,
    ...(mesh.animations.length > 0 ? { animations: mesh.animations } : {}),
    name: output.replace(/^.*[/\\]/, ''),
  })
  mesh.geometry.dispose()
  const counts = { vertices: model.header.numVertices, triangles: model.header.numTris, frames: model.header.numFrames }
  if (!noEngineLimits && (['vertices', 'triangles', 'frames'] as const).some((what) => counts[what] > ENGINE_LIMITS[what])) {
    const advice: string[] = []
    if (counts.vertices > ENGINE_LIMITS.vertices || counts.triangles > ENGINE_LIMITS.triangles)
      advice.push(
        'obj' in source
          ? 'simplify the mesh (convert\u2019s --simplify reduces a glTF scene; an OBJ is taken as it is: reduce it in a modeller, or export it as glTF)'
          : 'simplify the mesh (convert\u2019s --simplify bakes it, reduced to fit)',
      )
    if (counts.frames > ENGINE_LIMITS.frames) advice.push('keep fewer morph targets')
    advice.push('--no-engine-limits writes it anyway')
    try {
      refuseLimits(counts, advice)
    } catch (error) {
      throw (error as MD2Error).withFile(input)
    }
  }
  const data = writeMD2(model)
  const written = parseMD2(data, { name: output })
  const { header } = written
  const summary =
    `wrote ${output}: ${data.byteLength} bytes, ${header.numFrames} frame${header.numFrames === 1 ? '' : 's'}, ` +
    `${header.numVertices} vertices, ${header.numTris} triangles, ${written.animations.length} animation${written.animations.length === 1 ? '' : 's'}, ` +
    `no skin written (texture coordinates in ${skinWidth}×${skinHeight} texels)`
  return { files: [{ path: output, data }], summary, warnings: withLimitsLine(written.warnings, engineLimitsLine(header, null)) }
}

interface MeshSource {
  geometry: BufferGeometry
  frameNames: string[] | undefined
  animations: MD2AnimationDef[]
  imageSize: [number, number] | undefined
  /** Textures and materials the input names that the model leaves out, one line each. */
  unused: string[]
}

function meshFromOBJ(input: string, bytes: Uint8Array): MeshSource {
  const group = new OBJLoader().parse(new TextDecoder().decode(bytes))
  const meshes: Mesh[] = []
  group.traverse((object) => {
    if ((object as Mesh).isMesh) meshes.push(object as Mesh)
  })
  const mesh = meshes[0]
  if (!mesh) throw new MD2Error('EMPTY', 'the OBJ file holds no faces', { file: input })
  // OBJ texture coordinates run upward, as three.js's do.
  const text = new TextDecoder().decode(bytes)
  const libraries = [...new Set([...text.matchAll(/^[ \t]*mtllib[ \t]+(.+?)[ \t]*$/gm)].map((match) => match[1]!))]
  const unused = libraries.map(
    (library) =>
      `materials "${library}" not read: an OBJ's textures are not written as a skin (--skin-size sets the texels its coordinates are measured in)`,
  )
  return { geometry: mesh.geometry.clone(), frameNames: undefined, animations: [], imageSize: undefined, unused }
}

async function meshFromGLTF(input: string, { json, bin }: GLBContents, io: CliIO): Promise<MeshSource> {
  const imageSize = firstImageSize(json, bin)
  // Counted before loading: the loader leaves the images out.
  const images = Array.isArray(json.images) ? json.images.length : 0
  const gltf = await loadGLTF(input, { json, bin })
  const meshes: Mesh[] = []
  gltf.scene.updateMatrixWorld(true)
  gltf.scene.traverse((object) => {
    if ((object as Mesh).isMesh) meshes.push(object as Mesh)
  })
  const mesh = meshes[0]
  if (!mesh) throw new MD2Error('EMPTY', 'the glTF file holds no mesh', { file: input })
  if (meshes.length > 1) io.stderr(`${input}: ${meshes.length} meshes; converting the first, "${printable(mesh.name)}"\n`)
  const geometry = mesh.geometry.clone()
  placeInWorld(geometry, mesh.matrixWorld)
  // glTF's texture origin is the top-left corner; MD2 geometry is given in three.js's (v runs upward).
  const uv = geometry.getAttribute('uv') as BufferAttribute | undefined
  if (uv) for (let i = 0; i < uv.count; i++) uv.setY(i, 1 - uv.getY(i))
  const dictionary = mesh.morphTargetDictionary
  const targets = geometry.morphAttributes.position?.length ?? 0
  // Target names past MD2's 15 bytes cut as clip names are (after Blender's |, each animation's prefix its own).
  const fitted = dictionary && targets > 0 ? fitFrameNames(namesByIndex(dictionary, targets)) : undefined
  const frameNames = fitted?.names
  if (fitted && fitted.cut.length > 0) {
    const shown = fitted.cut.slice(0, 3).map(({ from, to }) => `"${printable(from)}" is ${to}`)
    io.stderr(
      `${input}: warning: ${fitted.cut.length} morph target name${fitted.cut.length === 1 ? '' : 's'} cut to fit MD2's 15-byte frame names: ` +
        `${shown.join(', ')}${fitted.cut.length > 3 ? ', …' : ''}\n`,
    )
  }
  const animations: MD2AnimationDef[] = []
  if (targets > 0)
    for (const clip of gltf.animations) {
      const range = keyframeRange(clip, targets)
      if (range) animations.push(range)
      else io.stderr(`${input}: animation "${printable(clip.name)}" does not step through keyframes in order; left out\n`)
    }
  const unused =
    images > 0
      ? [
          `${images === 1 ? 'its texture is' : `its ${images} textures are`} not written as a skin: a mesh taken as it is gets none ` +
            '(--skin-format bakes it, with the base-colour texture as the skin)',
        ]
      : []
  return { geometry, frameNames, animations, imageSize, unused }
}

/** Morph targets are offsets in the mesh's own space: bring them, and the base, into the scene's. */
function placeInWorld(geometry: BufferGeometry, matrix: Matrix4): void {
  if (matrix.equals(new Matrix4())) return
  const linear = new Matrix3().setFromMatrix4(matrix)
  const normalMatrix = new Matrix3().getNormalMatrix(matrix)
  geometry.applyMatrix4(matrix)
  const transform = (attribute: BufferAttribute | InterleavedBufferAttribute, m: Matrix3, normalize: boolean) => {
    for (let i = 0; i < attribute.count; i++) {
      const x = attribute.getX(i),
        y = attribute.getY(i),
        z = attribute.getZ(i)
      const e = m.elements
      let nx = e[0]! * x + e[3]! * y + e[6]! * z
      let ny = e[1]! * x + e[4]! * y + e[7]! * z
      let nz = e[2]! * x + e[5]! * y + e[8]! * z
      if (normalize) {
        const length = Math.hypot(nx, ny, nz) || 1
        nx /= length
        ny /= length
        nz /= length
      }
      attribute.setXYZ(i, nx, ny, nz)
    }
  }
  const relative = geometry.morphTargetsRelative
  for (const target of geometry.morphAttributes.position ?? []) transform(target, linear, false)
  // Relative normal offsets are not unit vectors; absolute ones are renormalised.
  for (const target of geometry.morphAttributes.normal ?? []) transform(target, normalMatrix, !relative)
}

function namesByIndex(dictionary: Record<string, number>, count: number): string[] {
  const names = Array.from({ length: count }, (_, i) => `frame${String(i).padStart(3, '0')}`)
  for (const [name, index] of Object.entries(dictionary)) if (index < count) names[index] = name
  return names
}

/**
 * An animation as an MD2 range, when its clip is what MD2 animations look like: keys at a constant rate,
 * each showing one keyframe at full weight, stepping by one (and maybe back to the first to loop).
 */
function keyframeRange(
  clip: { name: string; tracks: { name: string; times: ArrayLike<number>; values: ArrayLike<number> }[] },
  targets: number,
): MD2AnimationDef | undefined {
  const track = clip.tracks.find((t) => t.name.endsWith('.morphTargetInfluences'))
  if (!track || clip.tracks.length !== 1) return undefined
  const keys = track.times.length
  if (keys < 1 || track.values.length !== keys * targets) return undefined
  const shown: number[] = []
  for (let k = 0; k < keys; k++) {
    let frame = -1
    for (let f = 0; f < targets; f++) {
      const w = track.values[k * targets + f]!
      if (Math.abs(w - 1) < 1e-4) {
        if (frame >= 0) return undefined
        frame = f
      } else if (Math.abs(w) > 1e-4) return undefined
    }
    if (frame < 0) return undefined
    shown.push(frame)
  }
  const start = shown[0]!
  let end = start
  for (let k = 1; k < keys; k++) {
    if (shown[k] === end + 1) end++
    else if (k === keys - 1 && shown[k] === start) break
    else return undefined
  }
  const step = keys > 1 ? track.times[1]! - track.times[0]! : 0.1
  for (let k = 1; k < keys; k++) if (Math.abs(track.times[k]! - track.times[k - 1]! - step) > 1e-4) return undefined
  return { name: clip.name, start, end, fps: Math.round((1 / step) * 1000) / 1000 }
}

/** The size of the first image when it is a PNG (width and height sit in its IHDR chunk). */
function firstImageSize(json: Record<string, unknown>, bin: Uint8Array): [number, number] | undefined {
  const bytes = imageBytesOf(json, bin, (json.images as { bufferView?: number }[] | undefined)?.[0])
  if (!bytes || bytes.length < 24 || bytes[1] !== 0x50 || bytes[2] !== 0x4e || bytes[3] !== 0x47) return undefined
  const view = new DataView(bytes.buffer, bytes.byteOffset, 24)
  return [view.getUint32(16), view.getUint32(20)]
}
