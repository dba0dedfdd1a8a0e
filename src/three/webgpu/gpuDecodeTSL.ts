import { InterleavedBufferAttribute, type InstancedMesh, type Material, type Object3D } from 'three'
import {
  Fn,
  If,
  attribute,
  clamp,
  int,
  ivec2,
  materialColor,
  mix,
  normalLocal,
  positionGeometry,
  instanceIndex,
  instancedDynamicBufferAttribute,
  mat4,
  storage,
  transformNormal,
  pow,
  select,
  textureLoad,
  uniform,
  varying,
  vec3,
  vec4,
} from 'three/tsl'
import type { Node } from 'three/webgpu'
import { POWERSUIT_SCALE } from '../../core/lighting/quake2Light.js'
import type { GpuDecodeInputs, GpuDecodeOptions } from '../materials/gpuDecodeGLSL.js'

/** The node properties WebGPURenderer reads from any material (it copies them onto its node material). */
interface NodeSlots {
  positionNode?: Node | null
  colorNode?: Node | null
}

/**
 * One drawn instance's per-frame data (`MD2Crowd`'s rows): as vertex attributes in the vertex decode, or
 * read from storage by row in the compute pass.
 */
export interface InstanceInputs {
  /** Keyframes a and b, each as (block, row) of the frames texture. */
  frames: Node<'vec4'>
  /** The crowd's crossfade: the outgoing pose's two keyframes. */
  fadeFrames: Node<'vec4'>
  /** Blend towards b, the outgoing pose's blend, the crossfade's weight, the light table's row. */
  blend: Node<'vec4'>
  /** Quake II light (rgb), or a layer's own values. */
  light: Node<'vec4'>
  /** Keyframe a's and b's scales times their shares, and the blended translate. */
  scaleA: Node<'vec3'>
  scaleB: Node<'vec3'>
  shift: Node<'vec3'>
}

/** A vertex of an instance's pose, decoded: where it is (model units, Y up), its normal, and its normal's index in keyframe b. */
export interface DecodedVertex {
  position: Node<'vec3'>
  normal: Node<'vec3'>
  towardsNormal: Node<'float'>
}

/**
 * Where a crowd's material finds its poses already blended (by a compute pass, on real WebGPU), or
 * `undefined` when the renderer building it has none: the vertex shader then decodes them itself.
 */
export interface ComputedPoses {
  read(builder: NodeBuilderLike, vertex: Node<'int'>): { vertex: DecodedVertex; instance: InstanceInputs } | undefined
}

/** The per-instance data as the vertex attributes the crowd attaches. */
const instanceAttributes = (): InstanceInputs => ({
  frames: attribute('md2Frames', 'vec4'),
  fadeFrames: attribute('md2FadeFrames', 'vec4'),
  blend: attribute('md2Blend', 'vec4'),
  light: attribute('md2Light', 'vec4'),
  scaleA: attribute('md2ScaleA', 'vec3'),
  scaleB: attribute('md2ScaleB', 'vec3'),
  shift: attribute('md2Shift', 'vec3'),
})

/** A vertex's 4 bytes (x, y, z, normal index) in keyframe `frame`, as the whole numbers they are. */
function readTexel(inputs: GpuDecodeInputs, frame: Node<'vec2'>, vertex: Node<'int'>): Node<'vec4'> {
  return textureLoad(inputs.frames, ivec2(int(frame.x).mul(uniformVertices(inputs)).add(vertex), int(frame.y)))
    .mul(255)
    .add(0.5)
    .floor()
}

/** One uniform per frames texture (so many materials of one model share it). */
const verticesUniforms = new WeakMap<GpuDecodeInputs['frames'], Node<'int'>>()
function uniformVertices(inputs: GpuDecodeInputs): Node<'int'> {
  let node = verticesUniforms.get(inputs.frames)
  if (!node) verticesUniforms.set(inputs.frames, (node = uniform(inputs.vertices, 'int') as unknown as Node<'int'>))
  return node
}

const normalOf = (inputs: GpuDecodeInputs, index: Node<'float'>) => textureLoad(inputs.normals, ivec2(int(index), int(0))).xyz
// Quake's x, y, z drawn as y, z, x (Y up).
const yUp = (q: Node<'vec3'>) => vec3(q.y, q.z, q.x)

/**
 * Vertex `vertex` of `instance`'s pose: its two keyframes read from the frames texture, dequantized,
 * blended (and crossfaded from the outgoing pose) and turned Y-up, exactly as the GLSL decode and the
 * CPU kernel do. Called inside a TSL `Fn`: the vertex shader's and the compute pass's.
 */
export function decodeVertex(inputs: GpuDecodeInputs, instance: InstanceInputs, vertex: Node<'int'>): DecodedVertex {
  const { frames, fadeFrames, blend } = instance
  // One keyframe of the outgoing pose, through the frame table (a crossfade only).
  const readFaded = (frame: Node<'vec2'>, bytes: Node<'vec4'>) => {
    const at = ivec2(int(frame.x).mul(2), int(frame.y))
    return yUp(bytes.xyz.mul(textureLoad(inputs.table, at).xyz).add(textureLoad(inputs.table, at.add(ivec2(1, 0))).xyz))
  }
  const a = readTexel(inputs, frames.xy, vertex)
  const b = readTexel(inputs, frames.zw, vertex)
  const p = yUp(a.xyz.mul(instance.scaleA).add(b.xyz.mul(instance.scaleB)).add(instance.shift)).toVar()
  const n = mix(normalOf(inputs, a.w), normalOf(inputs, b.w), blend.x).toVar()
  If(blend.z.greaterThan(0), () => {
    const fa = readTexel(inputs, fadeFrames.xy, vertex)
    const fb = readTexel(inputs, fadeFrames.zw, vertex)
    p.assign(mix(p, mix(readFaded(fadeFrames.xy, fa), readFaded(fadeFrames.zw, fb), blend.y), blend.z))
    n.assign(mix(n, mix(normalOf(inputs, fa.w), normalOf(inputs, fb.w), blend.y), blend.z))
  })
  return { position: p, normal: n, towardsNormal: b.w }
}

/**
 * The GPU decode for `WebGPURenderer` (both of its backends), in TSL: the same steps, on the same
 * per-instance attributes and textures, as the GLSL in `gpuDecodeGLSL.ts`. Set as the material's
 * `positionNode` (which the renderer also uses for shadow maps) and, for Quake II light, `colorNode`;
 * `WebGLRenderer` ignores these properties, so one material serves both renderers. With `computed`, a
 * renderer that has the poses blended already reads them instead of decoding.
 */
export function decodeInTSL(
  material: Material,
  inputs: GpuDecodeInputs,
  options: GpuDecodeOptions & { computed?: ComputedPoses } = {},
): void {
  // The geometry's position holds only the MD2 vertex each drawn vertex reads.
  const vertex = int(positionGeometry.x)
  const pose = (builder: NodeBuilderLike): { vertex: DecodedVertex; instance: InstanceInputs } => {
    const computed = options.computed?.read(builder, vertex)
    if (computed) return computed
    const instance = instanceAttributes()
    return { vertex: decodeVertex(inputs, instance, vertex), instance }
  }

  const position = Fn((nodeBuilder) => {
    const builder = nodeBuilder as unknown as NodeBuilderLike
    const { vertex: decoded, instance } = pose(builder)
    const p = vec3(decoded.position).toVar()
    // A power-up shell stands off the body along the normals of the frame blended towards.
    if (options.shell) p.addAssign(normalOf(inputs, decoded.towardsNormal).mul(POWERSUIT_SCALE))
    if (options.shadow) {
      // Each vertex moved across by the shade vector times its height above the floor, then laid 1 unit above it.
      const shade = instance.light
      const rise = p.y.add(shade.z)
      p.assign(vec3(p.x.sub(shade.y.mul(rise)), shade.z.oneMinus(), p.z.sub(shade.x.mul(rise))))
    }
    // The renderer places the instance before it reads positionNode, so the decoded vertex is placed here.
    const placement = instancePlacement(builder)
    if (options.normals) normalLocal.assign(transformNormal(decoded.normal, placement))
    return placement.mul(vec4(p, 1)).xyz
  })()

  const slots = material as Material & NodeSlots
  slots.positionNode = position
  if (options.instanceColor) {
    slots.colorNode = Fn((nodeBuilder) => {
      // One colour per instance, not interpolated (an interpolated constant can come out a level off).
      const instance = options.computed?.read(nodeBuilder as unknown as NodeBuilderLike, vertex)?.instance ?? instanceAttributes()
      const color = varying(instance.light.rgb, 'v_md2InstanceColor').setInterpolation('flat')
      return materialColor.mul(vec4(color, 1))
    })()
  }
  if (options.quake2Light) {
    slots.colorNode = Fn((nodeBuilder) => {
      const computed = options.computed?.read(nodeBuilder as unknown as NodeBuilderLike, vertex)
      const instance = computed?.instance ?? instanceAttributes()
      // Only the normal's index in keyframe b is needed here, not the whole decode.
      const towards = computed?.vertex.towardsNormal ?? readTexel(inputs, instance.frames.zw, vertex).w
      // Quake II lights a vertex by its normal in the frame being blended towards, from its yaw's row.
      const dots = textureLoad(inputs.light, ivec2(int(towards), int(instance.blend.w))).r
      const c = clamp(instance.light.rgb.mul(dots), 0, 1)
      const linear = (x: Node<'float'>) => select(x.lessThanEqual(0.04045), x.div(12.92), pow(x.add(0.055).div(1.055), 2.4))
      // Made linear per vertex, then interpolated, as the GLSL path and the CPU path's vertex colours are.
      return materialColor.mul(vec4(varying(vec3(linear(c.r), linear(c.g), linear(c.b)), 'v_md2Color'), 1))
    })()
  }
}

/**
 * The drawn instance's matrix, read from the mesh's `instanceMatrix` as three's own instancing reads it
 * (the same buffer): from storage on WebGPU (`CrowdRenderer` makes it a storage attribute there: no vertex
 * input taken), as four instanced columns on the WebGL2 backend.
 */
function instancePlacement(builder: NodeBuilderLike): Node<'mat4'> {
  const matrices = (builder.object as InstancedMesh).instanceMatrix
  if (builder.renderer.backend.isWebGPUBackend)
    return storage(matrices as never, 'mat4', Math.max(matrices.count, 1)).element(instanceIndex) as unknown as Node<'mat4'>
  const columns = [0, 4, 8, 12].map((offset) =>
    instancedDynamicBufferAttribute(new InterleavedBufferAttribute(matrices as never, 4, offset) as never, 'vec4'),
  )
  return mat4(...(columns as [Node<'vec4'>, Node<'vec4'>, Node<'vec4'>, Node<'vec4'>]))
}

export interface NodeBuilderLike {
  object: Object3D
  renderer: { backend: { isWebGPUBackend?: boolean } }
}
