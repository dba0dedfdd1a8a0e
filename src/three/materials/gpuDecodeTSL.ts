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
import { POWERSUIT_SCALE } from '../../core/lighting/quake2-light.js'
import type { GpuDecodeInputs, GpuDecodeOptions } from './gpuDecodeGLSL.js'

/** The node properties WebGPURenderer reads from any material (it copies them onto its node material). */
interface NodeSlots {
  positionNode?: Node | null
  colorNode?: Node | null
}

/**
 * The GPU decode for `WebGPURenderer` (both of its backends), in TSL: the same steps, on the same
 * per-instance attributes and textures, as the GLSL in `gpuDecodeGLSL.ts`. Set as the material's
 * `positionNode` (which the renderer also uses for shadow maps) and, for Quake II light, `colorNode`;
 * `WebGLRenderer` ignores these properties, so one material serves both renderers.
 */
export function decodeInTSL(material: Material, inputs: GpuDecodeInputs, options: GpuDecodeOptions = {}): void {
  const vertices = uniform(inputs.vertices, 'int')
  const frames = attribute('md2Frames', 'vec4')
  const fadeFrames = attribute('md2FadeFrames', 'vec4')
  const blend = attribute('md2Blend', 'vec4')
  // The geometry's position holds only the MD2 vertex each drawn vertex reads.
  const vertex = int(positionGeometry.x)

  // A vertex's 4 bytes (x, y, z, normal index) as the whole numbers they are.
  const texel = (frame: Node<'vec2'>) =>
    textureLoad(inputs.frames, ivec2(int(frame.x).mul(vertices).add(vertex), int(frame.y)))
      .mul(255)
      .add(0.5)
      .floor()
  const normalOf = (index: Node<'float'>) => textureLoad(inputs.normals, ivec2(int(index), int(0))).xyz
  // Quake's x, y, z drawn as y, z, x (Y up).
  const yUp = (q: Node<'vec3'>) => vec3(q.y, q.z, q.x)
  // One keyframe of the outgoing pose, through the frame table (a crossfade only).
  const readFaded = (frame: Node<'vec2'>, bytes: Node<'vec4'>) => {
    const at = ivec2(int(frame.x).mul(2), int(frame.y))
    return yUp(bytes.xyz.mul(textureLoad(inputs.table, at).xyz).add(textureLoad(inputs.table, at.add(ivec2(1, 0))).xyz))
  }

  const position = Fn((nodeBuilder) => {
    const builder = nodeBuilder as unknown as NodeBuilderLike
    const a = texel(frames.xy)
    const b = texel(frames.zw)
    const p = yUp(
      a.xyz
        .mul(attribute('md2ScaleA', 'vec3'))
        .add(b.xyz.mul(attribute('md2ScaleB', 'vec3')))
        .add(attribute('md2Shift', 'vec3')),
    ).toVar()
    const n = mix(normalOf(a.w), normalOf(b.w), blend.x).toVar()
    If(blend.z.greaterThan(0), () => {
      const fa = texel(fadeFrames.xy)
      const fb = texel(fadeFrames.zw)
      p.assign(mix(p, mix(readFaded(fadeFrames.xy, fa), readFaded(fadeFrames.zw, fb), blend.y), blend.z))
      n.assign(mix(n, mix(normalOf(fa.w), normalOf(fb.w), blend.y), blend.z))
    })
    // A power-up shell stands off the body along the normals of the frame blended towards.
    if (options.shell) p.addAssign(normalOf(b.w).mul(POWERSUIT_SCALE))
    if (options.shadow) {
      // Each vertex moved across by the shade vector times its height above the floor, then laid 1 unit above it.
      const shade = attribute('md2Light', 'vec4')
      const rise = p.y.add(shade.z)
      p.assign(vec3(p.x.sub(shade.y.mul(rise)), shade.z.oneMinus(), p.z.sub(shade.x.mul(rise))))
    }
    // The renderer places the instance before it reads positionNode, so the decoded vertex is placed here.
    const placement = instancePlacement(builder)
    if (options.normals) normalLocal.assign(transformNormal(n, placement))
    return placement.mul(vec4(p, 1)).xyz
  })()

  const slots = material as Material & NodeSlots
  slots.positionNode = position
  if (options.instanceColor) {
    // One colour per instance, not interpolated (an interpolated constant can come out a level off).
    const color = varying(attribute('md2Light', 'vec4').rgb, 'v_md2InstanceColor').setInterpolation('flat')
    slots.colorNode = materialColor.mul(vec4(color, 1))
  }
  if (options.quake2Light) {
    // Quake II lights a vertex by its normal in the frame being blended towards, from its yaw's row.
    const dots = textureLoad(inputs.light, ivec2(int(texel(frames.zw).w), int(blend.w))).r
    const c = clamp(attribute('md2Light', 'vec4').rgb.mul(dots), 0, 1)
    const linear = (x: Node<'float'>) => select(x.lessThanEqual(0.04045), x.div(12.92), pow(x.add(0.055).div(1.055), 2.4))
    // Made linear per vertex, then interpolated, as the GLSL path and the CPU path's vertex colours are.
    slots.colorNode = materialColor.mul(vec4(varying(vec3(linear(c.r), linear(c.g), linear(c.b)), 'v_md2Color'), 1))
  }
}

/**
 * The drawn instance's matrix, read from the mesh's `instanceMatrix` as three's own instancing reads it
 * (the same buffer): from storage on WebGPU (`MD2Crowd` makes it a storage attribute there: no vertex
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

interface NodeBuilderLike {
  object: Object3D
  renderer: { backend: { isWebGPUBackend?: boolean } }
}
