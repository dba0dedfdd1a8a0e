import { MD2Error } from '../core/MD2Error.js'

/** Bytes per component of each glTF component type. */
const COMPONENT_BYTES: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 }
/** Components per element of each accessor type. */
const TYPE_SIZES: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 }
const PATHS = new Set(['translation', 'rotation', 'scale', 'weights', 'pointer'])
const INTERPOLATIONS = new Set(['LINEAR', 'STEP', 'CUBICSPLINE'])
/** The most elements an accessor without a buffer view may declare (three allocates it zero-filled). */
const MAX_EMPTY_ELEMENTS = 1 << 24

/** The deepest node hierarchy read: three's loader and scene walk it recursively, a stack frame or more a level. */
const MAX_NODE_DEPTH = 1000

type Def = Record<string, unknown>

/**
 * Checks a glTF's structure before three's loader reads it: every index inside its array, every accessor
 * and buffer view inside the binary data, component types, accessor types, primitive modes and animation
 * paths known, the nodes a tree (no node under two parents, no cycle). The loader trusts these; a wrong
 * one ends in a RangeError from deep inside it, a rejection nobody awaits, or a recursion without end.
 * Throws `MD2Error` `OUT_OF_RANGE` naming the field and its value.
 */
export function checkGLTF(json: Def, binLength: number, input: string): void {
  const fail = (where: string, why: string): never => {
    throw new MD2Error('OUT_OF_RANGE', `${where} ${why}`, { section: 'gltf', file: input })
  }
  // Each array checked once: an index is checked against its array's length as often as it is named.
  const checked = new Map<string, Def[]>()
  const list = (name: string): Def[] => {
    const known = checked.get(name)
    if (known) return known
    const value = json[name]
    if (value === undefined) return []
    if (!Array.isArray(value)) fail(name, 'is not an array')
    ;(value as unknown[]).forEach((item, i) => {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) fail(`${name}[${i}]`, 'is not an object')
      const named = (item as Def).name
      if (named !== undefined && typeof named !== 'string') fail(`${name}[${i}].name`, `${JSON.stringify(named)} is not a string`)
    })
    checked.set(name, value as Def[])
    return value as Def[]
  }
  const whole = (where: string, value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
      fail(where, `${JSON.stringify(value) ?? 'undefined'} is not a whole number from ${min} to ${max}`)
    return value as number
  }
  const index = (where: string, value: unknown, of: string): number => {
    const count = list(of).length
    if (count === 0) fail(where, `${JSON.stringify(value)} names one of ${of}, which has none`)
    return whole(where, value, 0, count - 1)
  }
  const optionalIndex = (where: string, value: unknown, of: string) => value === undefined || index(where, value, of)

  const views = list('bufferViews')
  views.forEach((view, i) => {
    const at = `bufferViews[${i}]`
    if (view.buffer !== 0) whole(`${at}.buffer`, view.buffer, 0, 0)
    const offset = view.byteOffset === undefined ? 0 : whole(`${at}.byteOffset`, view.byteOffset, 0)
    const length = whole(`${at}.byteLength`, view.byteLength, 1)
    if (offset + length > binLength) fail(at, `(${offset} + ${length} bytes) runs past the ${binLength} bytes of binary data`)
    if (view.byteStride !== undefined && whole(`${at}.byteStride`, view.byteStride, 4, 252) % 4 !== 0)
      fail(`${at}.byteStride`, `${String(view.byteStride)} is not a multiple of 4`)
  })
  /** An accessor's elements fit in its view (at its stride) or, without a view, are few enough to allocate. */
  const fits = (at: string, viewIndex: unknown, byteOffset: unknown, count: number, elementBytes: number) => {
    if (viewIndex === undefined) {
      if (count > MAX_EMPTY_ELEMENTS) fail(at, `declares ${count} elements without data (at most ${MAX_EMPTY_ELEMENTS})`)
      return
    }
    const view = views[index(`${at}.bufferView`, viewIndex, 'bufferViews')]!
    const offset = byteOffset === undefined ? 0 : whole(`${at}.byteOffset`, byteOffset, 0)
    const stride = (view.byteStride as number | undefined) ?? elementBytes
    // An interleaved view is read from the start of the stride its offset falls in, `count` strides long.
    const end = stride === elementBytes ? offset + count * elementBytes : (Math.floor(offset / stride) + count) * stride
    if (end > (view.byteLength as number) || (stride !== elementBytes && offset % stride > stride - elementBytes))
      fail(at, `(${count} elements of ${elementBytes} bytes from byte ${offset}) runs past bufferViews[${String(viewIndex)}]`)
  }
  list('accessors').forEach((accessor, i) => {
    const at = `accessors[${i}]`
    const bytes = COMPONENT_BYTES[accessor.componentType as number]
    if (bytes === undefined) fail(`${at}.componentType`, `${JSON.stringify(accessor.componentType)} is not a glTF component type`)
    const size = TYPE_SIZES[accessor.type as string]
    if (size === undefined) fail(`${at}.type`, `${JSON.stringify(accessor.type)} is not a glTF accessor type`)
    const count = whole(`${at}.count`, accessor.count, 1)
    fits(at, accessor.bufferView, accessor.byteOffset, count, bytes! * size!)
    const sparse = accessor.sparse as Def | undefined
    if (sparse !== undefined) {
      if (typeof sparse !== 'object' || sparse === null) fail(`${at}.sparse`, 'is not an object')
      const n = whole(`${at}.sparse.count`, sparse.count, 1, count)
      const indices = (sparse.indices ?? {}) as Def
      const values = (sparse.values ?? {}) as Def
      const indexBytes = COMPONENT_BYTES[indices.componentType as number]
      if (![5121, 5123, 5125].includes(indices.componentType as number))
        fail(`${at}.sparse.indices.componentType`, `${JSON.stringify(indices.componentType)} is not an unsigned integer type`)
      fits(`${at}.sparse.indices`, indices.bufferView ?? -1, indices.byteOffset, n, indexBytes!)
      fits(`${at}.sparse.values`, values.bufferView ?? -1, values.byteOffset, n, bytes! * size!)
    }
  })
  list('images').forEach((image, i) => optionalIndex(`images[${i}].bufferView`, image.bufferView, 'bufferViews'))
  list('textures').forEach((texture, i) => optionalIndex(`textures[${i}].source`, texture.source, 'images'))
  list('materials').forEach((material, m) => {
    const pbr = (material.pbrMetallicRoughness ?? {}) as Def
    for (const [where, info] of [
      ['pbrMetallicRoughness.baseColorTexture', pbr.baseColorTexture],
      ['pbrMetallicRoughness.metallicRoughnessTexture', pbr.metallicRoughnessTexture],
      ['normalTexture', material.normalTexture],
      ['occlusionTexture', material.occlusionTexture],
      ['emissiveTexture', material.emissiveTexture],
    ] as const) {
      if (info === undefined) continue
      if (typeof info !== 'object' || info === null) fail(`materials[${m}].${where}`, 'is not an object')
      index(`materials[${m}].${where}.index`, (info as Def).index, 'textures')
    }
  })
  list('meshes').forEach((mesh, m) => {
    const primitives = mesh.primitives
    if (!Array.isArray(primitives) || primitives.length === 0) fail(`meshes[${m}].primitives`, 'is not a list of primitives')
    ;(primitives as Def[]).forEach((primitive, p) => {
      const at = `meshes[${m}].primitives[${p}]`
      if (typeof primitive !== 'object' || primitive === null) fail(at, 'is not an object')
      if (primitive.mode !== undefined) whole(`${at}.mode`, primitive.mode, 0, 6)
      optionalIndex(`${at}.indices`, primitive.indices, 'accessors')
      optionalIndex(`${at}.material`, primitive.material, 'materials')
      const attributes = primitive.attributes
      if (typeof attributes !== 'object' || attributes === null || Array.isArray(attributes)) fail(`${at}.attributes`, 'is not an object')
      for (const [name, value] of Object.entries(attributes as Def)) index(`${at}.attributes.${name}`, value, 'accessors')
      const targets = primitive.targets
      if (targets !== undefined) {
        if (!Array.isArray(targets)) fail(`${at}.targets`, 'is not an array')
        ;(targets as Def[]).forEach((target, t) => {
          if (typeof target !== 'object' || target === null) fail(`${at}.targets[${t}]`, 'is not an object')
          for (const [name, value] of Object.entries(target)) index(`${at}.targets[${t}].${name}`, value, 'accessors')
        })
      }
    })
  })
  const nodes = list('nodes')
  const parent = new Map<number, number>()
  nodes.forEach((node, i) => {
    const at = `nodes[${i}]`
    optionalIndex(`${at}.mesh`, node.mesh, 'meshes')
    optionalIndex(`${at}.skin`, node.skin, 'skins')
    optionalIndex(`${at}.camera`, node.camera, 'cameras')
    for (const [key, length] of [
      ['matrix', 16],
      ['translation', 3],
      ['rotation', 4],
      ['scale', 3],
    ] as const) {
      const value = node[key]
      if (
        value !== undefined &&
        (!Array.isArray(value) || value.length !== length || !value.every((v) => typeof v === 'number' && Number.isFinite(v)))
      )
        fail(`${at}.${key}`, `is not ${length} finite numbers`)
    }
    if (node.children === undefined) return
    if (!Array.isArray(node.children)) fail(`${at}.children`, 'is not an array')
    ;(node.children as unknown[]).forEach((child, c) => {
      const n = index(`${at}.children[${c}]`, child, 'nodes')
      if (parent.has(n) || n === i) fail(`${at}.children[${c}]`, `${n}: node ${n} is already under node ${parent.get(n) ?? i}`)
      parent.set(n, i)
    })
  })
  // One parent each: a cycle is a chain of parents that comes back to where it started. Each node's depth is
  // found once, walking up (no recursion) only to a node whose depth is known: linear in the nodes.
  const depth = new Int32Array(nodes.length).fill(-1)
  const path: number[] = []
  for (let i = 0; i < nodes.length; i++) {
    let at = i
    // -2 marks a node on the path being walked: meeting one again is a cycle.
    while (depth[at] === -1) {
      depth[at] = -2
      path.push(at)
      const up = parent.get(at)
      if (up === undefined) break
      if (depth[up] === -2) fail(`nodes[${up}]`, 'is its own ancestor (the node hierarchy has a cycle)')
      at = up
    }
    let below = depth[at]! >= 0 ? depth[at]! : -1
    while (path.length > 0) {
      const node = path.pop()!
      if (depth[node] === -2) depth[node] = ++below
      else below = depth[node]!
      if (below > MAX_NODE_DEPTH)
        fail(`nodes[${node}]`, `is ${below} nodes below its root, past ${MAX_NODE_DEPTH} (three's loader walks a hierarchy by recursion)`)
    }
  }
  list('skins').forEach((skin, s) => {
    optionalIndex(`skins[${s}].inverseBindMatrices`, skin.inverseBindMatrices, 'accessors')
    optionalIndex(`skins[${s}].skeleton`, skin.skeleton, 'nodes')
    if (!Array.isArray(skin.joints) || skin.joints.length === 0) fail(`skins[${s}].joints`, 'is not a list of nodes')
    ;(skin.joints as unknown[]).forEach((joint, j) => index(`skins[${s}].joints[${j}]`, joint, 'nodes'))
  })
  list('scenes').forEach((scene, s) => {
    if (scene.nodes === undefined) return
    if (!Array.isArray(scene.nodes)) fail(`scenes[${s}].nodes`, 'is not an array')
    ;(scene.nodes as unknown[]).forEach((node, n) => index(`scenes[${s}].nodes[${n}]`, node, 'nodes'))
  })
  optionalIndex('scene', json.scene, 'scenes')
  list('animations').forEach((animation, a) => {
    const at = `animations[${a}]`
    const samplers = animation.samplers
    if (!Array.isArray(samplers)) fail(`${at}.samplers`, 'is not an array')
    ;(samplers as Def[]).forEach((sampler, s) => {
      if (typeof sampler !== 'object' || sampler === null) fail(`${at}.samplers[${s}]`, 'is not an object')
      index(`${at}.samplers[${s}].input`, sampler.input, 'accessors')
      index(`${at}.samplers[${s}].output`, sampler.output, 'accessors')
      if (sampler.interpolation !== undefined && !INTERPOLATIONS.has(sampler.interpolation as string))
        fail(`${at}.samplers[${s}].interpolation`, `${JSON.stringify(sampler.interpolation)} is not LINEAR, STEP or CUBICSPLINE`)
    })
    if (!Array.isArray(animation.channels)) fail(`${at}.channels`, 'is not an array')
    ;(animation.channels as Def[]).forEach((channel, c) => {
      if (typeof channel !== 'object' || channel === null) fail(`${at}.channels[${c}]`, 'is not an object')
      whole(`${at}.channels[${c}].sampler`, channel.sampler, 0, (samplers as unknown[]).length - 1)
      const target = channel.target as Def | undefined
      if (typeof target !== 'object' || target === null) fail(`${at}.channels[${c}].target`, 'is not an object')
      optionalIndex(`${at}.channels[${c}].target.node`, target!.node, 'nodes')
      if (!PATHS.has(target!.path as string))
        fail(`${at}.channels[${c}].target.path`, `${JSON.stringify(target!.path)} is not a node property`)
    })
  })
}
