import {
  AnimationClip,
  BufferAttribute,
  DoubleSide,
  Mesh,
  MeshStandardMaterial,
  NumberKeyframeTrack,
  SRGBColorSpace,
  Texture,
  type BufferGeometry,
} from 'three'
import { GLTFExporter } from 'three/examples/jsm/exporters/GLTFExporter.js'
import { MD2Error } from '../../core/errors.js'
import type { MD2Model } from '../../core/format/types.js'
import { createMD2Geometry, writeMD2Frame } from '../mesh/MD2Geometry.js'

export interface ExportGLTFOptions {
  /** The skin to embed (a texture from `useMD2Skin`/`MD2SkinLoader`); none when omitted. */
  skin?: Texture | null
  /** One morph target per keyframe and a clip per named animation (default), or the base frame alone. */
  animations?: boolean
  /** The keyframe the mesh itself holds (default 0). */
  frame?: number
}

/**
 * The model as glTF 2.0 binary (`.glb`) through three's `GLTFExporter`: a mesh in the Y-up frame
 * `<MD2Model>` draws, with one morph target per keyframe (positions and normals) and, per named
 * animation, a clip that moves the weights from keyframe to keyframe at its fps, looping back to its
 * first frame, so linear interpolation in any glTF player is MD2's own. The skin is embedded as a
 * PNG with glTF's top-left texture origin. Needs a browser (the exporter encodes through a canvas).
 */
export async function exportGLTF(model: MD2Model, options: ExportGLTFOptions = {}): Promise<Uint8Array> {
  const frames = model.header.numFrames
  const base = options.frame ?? 0
  if (!Number.isInteger(base) || base < 0 || base >= frames)
    throw new MD2Error('BAD_ARGUMENT', `exportGLTF: frame ${String(base)} is not a keyframe (0…${frames - 1})`)
  const geometry = createMD2Geometry(model, { frame: base })
  const exported = geometry.clone()
  // glTF's texture origin is the top-left corner: v = t / skinHeight.
  const uv = geometry.getAttribute('uv')
  const flipped = new Float32Array(uv.count * 2)
  for (let i = 0; i < uv.count; i++) {
    flipped[i * 2] = uv.getX(i)
    flipped[i * 2 + 1] = 1 - uv.getY(i)
  }
  exported.setAttribute('uv', new BufferAttribute(flipped, 2))
  const animations = options.animations !== false
  if (animations) addKeyframeTargets(exported, geometry, model)
  geometry.dispose()

  const map = options.skin ? topDownTexture(options.skin) : null
  const material = new MeshStandardMaterial({ map, roughness: 1, metalness: 0, side: DoubleSide })
  material.name = 'skin'
  const mesh = new Mesh(exported, material)
  mesh.name = model.name?.replace(/^.*[/\\]/, '').replace(/\.md2$/i, '') || 'md2'
  const clips: AnimationClip[] = []
  if (animations) {
    mesh.morphTargetInfluences = new Array<number>(frames).fill(0)
    mesh.morphTargetDictionary = Object.fromEntries(model.frameNames.map((name, i) => [name || `frame${i}`, i]))
    for (const animation of model.animations) clips.push(clipOf(mesh.name, animation, frames))
  }
  try {
    const result = await new GLTFExporter().parseAsync(mesh, { binary: true, animations: clips })
    return new Uint8Array(result as ArrayBuffer)
  } finally {
    exported.dispose()
    material.dispose()
    map?.dispose()
  }
}

/** Every keyframe's positions and normals, in the layout the mesh draws, as absolute morph targets. */
function addKeyframeTargets(target: BufferGeometry, scratch: BufferGeometry, model: MD2Model): void {
  const positions: BufferAttribute[] = []
  const normals: BufferAttribute[] = []
  for (let f = 0; f < model.header.numFrames; f++) {
    writeMD2Frame(scratch, model, f, f, 0)
    positions.push(new BufferAttribute((scratch.getAttribute('position').array as Float32Array).slice(), 3))
    normals.push(new BufferAttribute((scratch.getAttribute('normal').array as Float32Array).slice(), 3))
  }
  target.morphAttributes = { position: positions, normal: normals }
  target.morphTargetsRelative = false
}

/** Weights stepping through the animation's keyframes, back to its first to loop. */
function clipOf(meshName: string, animation: { name: string; start: number; end: number; fps: number }, frames: number): AnimationClip {
  const count = animation.end - animation.start + 1
  const keys = count + 1
  const times = new Float32Array(keys)
  const values = new Float32Array(keys * frames)
  for (let k = 0; k < keys; k++) {
    times[k] = k / animation.fps
    values[k * frames + animation.start + (k % count)] = 1
  }
  return new AnimationClip(animation.name, keys > 1 ? (keys - 1) / animation.fps : 0, [
    new NumberKeyframeTrack(`${meshName}.morphTargetInfluences`, times, values),
  ])
}

/** The skin drawn top row first into a canvas (the library's skins are stored bottom row first). */
function topDownTexture(skin: Texture): Texture {
  const image = skin.image as { width: number; height: number; data?: ArrayLike<number> } & CanvasImageSource
  const { width, height } = image
  const canvas =
    typeof OffscreenCanvas !== 'undefined'
      ? new OffscreenCanvas(width, height)
      : Object.assign(document.createElement('canvas'), { width, height })
  const context = canvas.getContext('2d') as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null
  if (!context) throw new MD2Error('BAD_ARGUMENT', 'exportGLTF: no 2D canvas to encode the skin with')
  // Stored bottom row first unless the texture flips on upload.
  const bottomUp = !skin.flipY
  if (image.data) {
    const pixels = new Uint8ClampedArray(width * height * 4)
    const row = width * 4
    for (let y = 0; y < height; y++) {
      const from = (bottomUp ? height - 1 - y : y) * row
      for (let i = 0; i < row; i++) pixels[y * row + i] = image.data[from + i]!
    }
    context.putImageData(new ImageData(pixels, width, height), 0, 0)
  } else {
    if (bottomUp) {
      context.translate(0, height)
      context.scale(1, -1)
    }
    context.drawImage(image, 0, 0)
  }
  const texture = new Texture(canvas as unknown as HTMLCanvasElement)
  texture.flipY = false
  texture.colorSpace = SRGBColorSpace
  texture.needsUpdate = true
  return texture
}
