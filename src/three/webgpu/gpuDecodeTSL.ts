import { InterleavedBufferAttribute, Vector4, type InstancedMesh, type Material, type Object3D } from 'three'
import {
  Fn,
  If,
  atan,
  attribute,
  clamp,
  dot,
  float as tslFloat,
  int,
  ivec2,
  materialColor,
  mix,
  modelWorldMatrix,
  normalLocal,
  positionGeometry,
  instanceIndex,
  instancedDynamicBufferAttribute,
  mat4,
  storage,
  transformNormal,
  pow,
  select,
  texture,
  textureLoad,
  textureSize,
  uniform,
  varying,
  vec2,
  vec3,
  vec4,
} from 'three/tsl'
import type { Node } from 'three/webgpu'
import { GLOW_FLOOR, POWERSUIT_SCALE } from '../../core/lighting/quake2Light.js'
import { SHADEDOT_NUDGE, SHADEDOT_QUANT } from '../../core/lighting/shadeDots.js'
import { crowdShaderStates, type CrowdShaderState } from '../crowd/gpu/CrowdShaderState.js'
import { ROW_HIDDEN, ROW_LOOP, ROW_NO_INTERPOLATION, ROW_POSED, ROW_REVERSE } from '../crowd/gpu/instanceRows.js'
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
  /** Blend towards b, the outgoing pose's blend, the crossfade's weight, and 0. */
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

/**
 * Where a crowd's material finds the instance each drawn instance shows, when a compute pass culled the
 * crowd and its draw is indirect (`CrowdComputeCull`): that instance's pose, worked out by the pass, and
 * its matrix. `undefined` when the object built is not drawn that way: the vertex stage works out its own
 * instance's pose and culls.
 */
export interface ListedInstances {
  read(builder: NodeBuilderLike): ListedInstance | undefined
}

/** A listed instance's pose inputs (as `instanceFromRow` gives them) and matrix. */
export interface ListedInstance {
  instance: InstanceInputs
  placement: Node<'mat4'>
}

/** An instance's row (`instanceRows.ts`): its animation as stored or a pose worked out already, and its light. */
export interface InstanceRow {
  clock: Node<'vec4'>
  range: Node<'vec4'>
  fade: Node<'vec4'>
  light: Node<'vec4'>
}

/** The row as the vertex attributes the crowd attaches. */
const rowAttributes = (): InstanceRow => ({
  clock: attribute('md2Clock', 'vec4'),
  range: attribute('md2Range', 'vec4'),
  fade: attribute('md2Fade', 'vec4'),
  light: attribute('md2Light', 'vec4'),
})

/**
 * The crowd's uniforms (`CrowdShaderState`) as TSL nodes, read for each object drawn (the crowd, or one of
 * its layers: `crowdShaderStates`): one set for every crowd, since WebGPURenderer shares what it builds
 * for materials alike (a node per crowd would be read as the first crowd's). Frames per block come from
 * the model's frame table's height.
 */
export interface StateNodes {
  time: Node<'float'>
  cull: Node<'float'>
  sphere: Node<'vec4'>
  planes: Node<'vec4'>[]
  glow: Node<'float'>
}
let shared: StateNodes | undefined
export function crowdStateNodes(): StateNodes {
  if (shared) return shared
  const of = (object: unknown) => crowdShaderStates.get(object as object)?.uniforms
  const float = (read: (u: CrowdShaderState['uniforms']) => number) =>
    uniform(0).onObjectUpdate(({ object }) => {
      const u = of(object)
      return u ? read(u) : undefined
    }) as unknown as Node<'float'>
  const vector = (read: (u: CrowdShaderState['uniforms']) => Vector4) =>
    uniform(new Vector4()).onObjectUpdate(({ object }) => {
      const u = of(object)
      return u ? read(u) : undefined
    }) as unknown as Node<'vec4'>
  shared = {
    time: float((u) => u.md2Time.value),
    cull: float((u) => u.md2Cull.value),
    sphere: vector((u) => u.md2Sphere.value),
    planes: [0, 1, 2, 3, 4, 5].map((p) => vector((u) => u.md2Planes.value[p]!)),
    glow: float((u) => u.md2Glow.value),
  }
  return shared
}

/** A row's flag (`ROW_…`), as a bool node. */
const flag = (flags: Node<'int'>, bit: number) => flags.bitAnd(bit).notEqual(0)

/**
 * An instance's pose from its row, at the crowd's time, by `CrowdClock`'s rules (the GLSL decode's
 * `md2Pose`): its keyframes as places in the frames texture, the blends, and the CPU kernel's coefficients
 * from the frame table. Called inside a TSL `Fn`.
 */
export function instanceFromRow(inputs: GpuDecodeInputs, row: InstanceRow, state: StateNodes): InstanceInputs {
  const { clock, range } = row
  const flags = int(range.y.add(0.5)).toVar()
  const len = clock.w
  const loop = flag(flags, ROW_LOOP)
  const reverse = flag(flags, ROW_REVERSE)
  const moving = clock.z.greaterThan(0)
  const raw = clock.x.add(select(moving, state.time.sub(clock.y).mul(clock.z), 0)).toVar()
  // Looping: on its lap; once: held on the last frame.
  const lapped = select(raw.greaterThanEqual(len), raw.sub(raw.div(len).floor().mul(len)), raw)
  const held = select(moving.and(raw.greaterThanEqual(len.sub(1))), len.sub(1), raw)
  const position = select(loop, lapped, held).toVar()
  const count = position.floor().toVar()
  const rangeFrame = (n: Node<'float'>) => {
    const step = select(loop, n.sub(n.add(0.5).div(len).floor().mul(len)), n.min(len.sub(1)))
    return select(reverse, range.x.add(len).sub(1).sub(step), range.x.add(step))
  }
  const posed = flag(flags, ROW_POSED)
  const ranged = rangeFrame(count)
  const from = select(posed, clock.x, ranged).toVar()
  const to = select(posed, clock.y, select(loop.not().and(count.greaterThanEqual(len.sub(1))), ranged, rangeFrame(count.add(1)))).toVar()
  const t = select(posed, clock.z, select(flag(flags, ROW_NO_INTERPOLATION), 0, position.sub(count))).toVar()
  const elapsed = state.time.sub(range.z)
  // KeyframeClock's fadeOutWeight: an exponential ease-out from 1 to 0.
  const eased = elapsed
    .div(range.w)
    .mul(-2)
    .exp()
    .sub(FADE_FLOOR)
    .div(1 - FADE_FLOOR)
  const fade = select(posed, range.w, select(range.w.greaterThan(0).and(elapsed.lessThan(range.w)), eased, 0)).toVar()
  // Frames per block of texture rows: the frame table's height.
  const rows = tslFloat((textureSize(texture(inputs.table), int(0)) as unknown as Node<'ivec2'>).y).toVar()
  const place = (f: Node<'float'>) => {
    const block = f.add(0.5).div(rows).floor()
    return vec2(block, f.sub(block.mul(rows)))
  }
  const a = place(from).toVar()
  const b = place(to).toVar()
  const tableAt = (frame: Node<'vec2'>, column: number) =>
    textureLoad(inputs.table, ivec2(int(frame.x).mul(2).add(column), int(frame.y))).xyz
  return {
    frames: vec4(a, b),
    fadeFrames: vec4(place(row.fade.x), place(row.fade.y)),
    blend: vec4(t, row.fade.z, fade, 0),
    light: row.light,
    scaleA: tableAt(a, 0).mul(t.oneMinus()),
    scaleB: tableAt(b, 0).mul(t),
    shift: tableAt(a, 1).mul(t.oneMinus()).add(tableAt(b, 1).mul(t)),
  }
}

/**
 * Whether the instance of `row` is hidden, or culled (its sphere, placed by `placement`, outside one of the view's
 * planes): in the vertex stage, or in the compute pass culling a crowd on WebGPU (`CrowdComputeCull`).
 */
export function culled(row: Pick<InstanceRow, 'range'>, state: StateNodes, placement: Node<'mat4'>): Node<'bool'> {
  const centre = placement.mul(vec4(state.sphere.xyz, 1)).xyz.toVar()
  const axis = (k: number) => {
    const column = placement.mul(vec4(k === 0 ? 1 : 0, k === 1 ? 1 : 0, k === 2 ? 1 : 0, 0)).xyz
    return dot(column, column)
  }
  const radius = state.sphere.w
    .mul(axis(0).max(axis(1)).max(axis(2)).sqrt())
    .negate()
    .toVar()
  const out = (plane: Node<'vec4'>) => dot(plane.xyz, centre).add(plane.w).lessThan(radius)
  let outside = out(state.planes[0]!)
  for (let p = 1; p < 6; p++) outside = outside.or(out(state.planes[p]!))
  return flag(int(row.range.y.add(0.5)), ROW_HIDDEN).or(state.cull.greaterThan(0.5).and(outside))
}

const FADE_FLOOR = Math.exp(-2)

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
  options: GpuDecodeOptions & { computed?: ComputedPoses; culled?: ListedInstances },
): void {
  // The geometry's position holds only the MD2 vertex each drawn vertex reads.
  const vertex = int(positionGeometry.x)
  const state = crowdStateNodes()
  const pose = (builder: NodeBuilderLike, listed: ListedInstance | undefined): { vertex: DecodedVertex; instance: InstanceInputs } => {
    const computed = options.computed?.read(builder, vertex)
    if (computed) return computed
    // Listed, its pose was worked out by the pass: only its vertex is decoded here.
    const instance = listed?.instance ?? instanceFromRow(inputs, rowAttributes(), state)
    return { vertex: decodeVertex(inputs, instance, vertex), instance }
  }

  const position = Fn((nodeBuilder) => {
    const builder = nodeBuilder as unknown as NodeBuilderLike
    // Culled by a compute pass: the draw's instance `k` shows the listed instance, culled and posed already.
    const listed = options.culled?.read(builder)
    const { vertex: decoded, instance } = pose(builder, listed)
    const p = vec3(decoded.position).toVar()
    // A power-up shell stands off the body along the normals of the frame blended towards.
    if (options.shell) p.addAssign(normalOf(inputs, decoded.towardsNormal).mul(POWERSUIT_SCALE))
    // A follower on its leader's tag: placed on it in its model space, then by the instance's matrix (the leader's).
    const tag = tagOf(builder)
    if (tag) p.assign(onTag(tag, p).add(tag.origin))
    if (options.shadow) {
      // Each vertex moved across by the shade vector times its height above the floor, then laid 1 unit above it.
      const shade = instance.light
      const rise = p.y.add(shade.z)
      p.assign(vec3(p.x.sub(shade.y.mul(rise)), shade.z.oneMinus(), p.z.sub(shade.x.mul(rise))))
    }
    // The renderer places the instance before it reads positionNode, so the decoded vertex is placed here.
    const placement = listed?.placement ?? instancePlacement(builder)
    // A culled instance's triangles all fall on one point: nothing is drawn of them.
    if (!listed) p.assign(select(culled(rowAttributes(), state, placement), vec3(0), p))
    if (options.normals) normalLocal.assign(transformNormal(tag ? onTag(tag, decoded.normal) : decoded.normal, placement))
    return placement.mul(vec4(p, 1)).xyz
  })()

  const slots = material as Material & NodeSlots
  // One program per model: WebGPURenderer would otherwise share one built for another model's frames.
  const key = material.customProgramCacheKey.bind(material)
  material.customProgramCacheKey = () => `${key()}|md2-frames-${inputs.frames.uuid}`
  slots.positionNode = position
  if (options.instanceColor) {
    slots.colorNode = Fn((nodeBuilder) => {
      // One colour per instance, not interpolated (an interpolated constant can come out a level off).
      const instance = options.computed?.read(nodeBuilder as unknown as NodeBuilderLike, vertex)?.instance ?? {
        light: rowAttributes().light,
      }
      const color = varying(instance.light.rgb, 'v_md2InstanceColor').setInterpolation('flat')
      return materialColor.mul(vec4(color, 1))
    })()
  }
  if (options.quake2Light) {
    slots.colorNode = Fn((nodeBuilder) => {
      const builder = nodeBuilder as unknown as NodeBuilderLike
      const computed = options.computed?.read(builder, vertex)
      const listed = computed ? undefined : options.culled?.read(builder)
      const instance = computed?.instance ?? listed?.instance ?? instanceFromRow(inputs, rowAttributes(), state)
      // Only the normal's index in keyframe b is needed here, not the whole decode.
      const towards = computed?.vertex.towardsNormal ?? readTexel(inputs, instance.frames.zw, vertex).w
      // Quake II lights a vertex by its normal in the frame being blended towards, from the row of its world yaw
      // (its +Z seen from above; `shadeDotsRow`'s steps, nudged the same way), by its row's shadelight and the glow.
      const z = tagOf(builder)?.z ?? vec3(0, 0, 1)
      const facing = modelWorldMatrix.mul((listed?.placement ?? instancePlacement(builder)).mul(vec4(z, 0))).toVar()
      const steps = atan(facing.x, facing.z)
        .mul(SHADEDOT_QUANT / (2 * Math.PI))
        .toVar()
      const row = int(steps.add(select(steps.lessThan(0), -SHADEDOT_NUDGE, SHADEDOT_NUDGE))).bitAnd(SHADEDOT_QUANT - 1)
      const base = instance.light.rgb
      const shade = base.add(state.glow).max(base.mul(GLOW_FLOOR))
      const dots = textureLoad(inputs.light, ivec2(int(towards), row)).r
      const c = clamp(shade.mul(dots), 0, 1)
      const linear = (x: Node<'float'>) => select(x.lessThanEqual(0.04045), x.div(12.92), pow(x.add(0.055).div(1.055), 2.4))
      // Made linear per vertex, then interpolated, as the GLSL path and the CPU path's vertex colours are.
      return materialColor.mul(vec4(varying(vec3(linear(c.r), linear(c.g), linear(c.b)), 'v_md2Color'), 1))
    })()
  }
}

/** A tag's placement for the drawn instance (Y-up): its axes and origin. */
interface TagPlacement {
  x: Node<'vec3'>
  y: Node<'vec3'>
  z: Node<'vec3'>
  origin: Node<'vec3'>
}

/** `v` turned by the tag's axes (a point then moves by its origin). */
const onTag = (tag: TagPlacement, v: Node<'vec3'>) => tag.x.mul(v.x).add(tag.y.mul(v.y)).add(tag.z.mul(v.z))

/** The leader's time, as each follower's state holds it (one node for every crowd, as `crowdStateNodes`). */
let tagTime: Node<'float'> | undefined

/**
 * Where the drawn instance's tag places it, for a follower crowd placed on its leader's tag by the shader
 * (`CrowdShaderState.tag`), or `undefined`: the leader's instance's row (`md2Tag…`, beside the follower's own) posed
 * at the leader's time by `instanceFromRow`, its keyframes' tags read from the tag texture (a frame a row, so a
 * keyframe's place is its row), blended with each axis made unit again where they differ, then the crossfade's
 * outgoing pose's blended in by its weight: as the GLSL decode's `md2Tag` and the CPU's `tagTransform`. One per
 * build: the position, the normal and Quake II light's facing read it.
 */
function tagOf(builder: NodeBuilderLike): TagPlacement | undefined {
  if (tagPlacements.has(builder)) return tagPlacements.get(builder)
  const tag = crowdShaderStates.get(builder.object)?.tag
  let placement: TagPlacement | undefined
  if (tag) {
    tagTime ??= uniform(0).onObjectUpdate(({ object }) =>
      object ? crowdShaderStates.get(object)?.tag?.time.value : undefined,
    ) as unknown as Node<'float'>
    const row: InstanceRow = {
      clock: attribute('md2TagClock', 'vec4'),
      range: attribute('md2TagRange', 'vec4'),
      fade: attribute('md2TagFade', 'vec4'),
      light: vec4(0),
    }
    const inputs = { table: tag.texture } as GpuDecodeInputs
    const pose = instanceFromRow(inputs, row, { ...crowdStateNodes(), time: tagTime })
    const unit = (v: Node<'vec3'>) => select(v.length().greaterThan(0), v.normalize(), v)
    const unitAxes = (columns: Node<'vec4'>[]) => columns.map((c) => vec4(unit(c.xyz), c.w))
    const at = (frame: Node<'float'>) => [0, 1, 2].map((c) => textureLoad(tag.texture, ivec2(c, int(frame))))
    const lerp = (from: Node<'float'>, to: Node<'float'>, t: Node<'float'>) => {
      const a = at(from)
      const b = unitAxes(a.map((c, k) => mix(c, at(to)[k]!, t)))
      const blended = t.greaterThan(0).and(t.lessThanEqual(1)).and(from.notEqual(to))
      return a.map((c, k) => select(blended, b[k]!, c))
    }
    const { frames, fadeFrames, blend } = pose
    const own = lerp(frames.y, frames.w, blend.x)
    const outgoing = lerp(fadeFrames.y, fadeFrames.w, blend.y)
    const faded = unitAxes(own.map((c, k) => mix(c, outgoing[k]!, blend.z.min(1))))
    const [x, y, z] = own.map((c, k) => select(blend.z.greaterThan(0), faded[k]!, c).toVar())
    placement = { x: x!.xyz, y: y!.xyz, z: z!.xyz, origin: vec3(x!.w, y!.w, z!.w) }
  }
  tagPlacements.set(builder, placement)
  return placement
}
const tagPlacements = new WeakMap<NodeBuilderLike, TagPlacement | undefined>()

/**
 * The drawn instance's matrix, read from the mesh's `instanceMatrix` as three's own instancing reads it
 * (the same buffer): from storage on WebGPU (`CrowdRenderer` makes it a storage attribute there: no vertex
 * input taken), as four instanced columns on the WebGL2 backend.
 */
function instancePlacement(builder: NodeBuilderLike): Node<'mat4'> {
  // One per build: the position and the Quake II light both read it, and on the WebGL2 backend each read made anew
  // would take four more vertex attributes.
  let placement = placements.get(builder)
  if (placement) return placement
  const matrices = (builder.object as InstancedMesh).instanceMatrix
  if (builder.renderer.backend.isWebGPUBackend)
    placement = storage(matrices as never, 'mat4', Math.max(matrices.count, 1)).element(instanceIndex) as unknown as Node<'mat4'>
  else {
    const columns = [0, 4, 8, 12].map((offset) =>
      instancedDynamicBufferAttribute(new InterleavedBufferAttribute(matrices as never, 4, offset) as never, 'vec4'),
    )
    placement = mat4(...(columns as [Node<'vec4'>, Node<'vec4'>, Node<'vec4'>, Node<'vec4'>]))
  }
  placements.set(builder, placement)
  return placement
}
const placements = new WeakMap<NodeBuilderLike, Node<'mat4'>>()

export interface NodeBuilderLike {
  object: Object3D
  renderer: { backend: { isWebGPUBackend?: boolean } }
  /** What is built reads this object's own buffers: three does not share it with another object's draws. */
  objectSpecific: boolean
}
