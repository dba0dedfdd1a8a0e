import { Matrix3, Vector3, type BufferAttribute, type Mesh, type Object3D, type SkinnedMesh } from 'three'
import { MD2Error } from '../../core/MD2Error.js'

/** A visible mesh to bake and its triangle corners (its own vertex numbers). */
export interface Part {
  mesh: Mesh
  count: number
  index: ArrayLike<number>
}

/**
 * What a bake samples: the vertices the triangles use, numbered 0…n−1 part after part (part `p` has the
 * next `locals.length` numbers, `locals` giving each one's number in its own mesh), the triangles over
 * them, and their bind-pose positions in world space (unscaled).
 */
export interface BakeSource {
  parts: { mesh: Mesh; locals: Uint32Array }[]
  index: Uint32Array
  positions: Float32Array
  /** Each vertex's look (`lookTable`): a vertex its triangles see with two looks is two vertices here. */
  looks: Uint32Array
}

const label = (mesh: Mesh) => (mesh.name ? `"${mesh.name}"` : 'an unnamed mesh')

/**
 * The visible meshes under `scene` (named, or with an ancestor named, in `names` when given), less those named
 * (or with an ancestor named) in `excluded`.
 */
export function collectParts(scene: Object3D, names: readonly string[] | undefined, excluded?: readonly string[]): Part[] {
  const parts: Part[] = []
  const found = new Set<string>()
  const existing = new Set<string>()
  scene.traverseVisible((object) => {
    const mesh = object as Mesh
    if (!mesh.isMesh) return
    if (mesh.name) existing.add(mesh.name)
    if (excluded && namedAbove(mesh, excluded, found)) return
    if (names && !namedAbove(mesh, names, found)) return
    const position = mesh.geometry.getAttribute('position')
    if (!position) return
    const index = mesh.geometry.getIndex()
    parts.push({
      mesh,
      count: position.count,
      index: index ? (index.array as ArrayLike<number>) : Uint32Array.from({ length: position.count }, (_, i) => i),
    })
  })
  const missing = [...(names ?? []), ...(excluded ?? [])].filter((name) => !found.has(name))
  if (missing.length > 0) {
    const there = [...existing].map((name) => `"${name}"`).join(', ') || 'none named'
    throw new MD2Error('BAD_ARGUMENT', `no visible mesh is named ${missing.map((name) => `"${name}"`).join(', ')} (the meshes: ${there})`, {
      section: 'options',
    })
  }
  if (parts.length === 0) throw new MD2Error('EMPTY', 'the scene holds no visible mesh', { section: 'meshes' })
  return parts
}

/** Whether `mesh` or a node above it has one of `names` (the first such name added to `found`). */
function namedAbove(mesh: Object3D, names: readonly string[], found: Set<string>): boolean {
  for (let node: Object3D | null = mesh; node; node = node.parent)
    if (names.includes(node.name)) {
      found.add(node.name)
      return true
    }
  return false
}

/** Component `k` of item `index` (three r159, the oldest supported, has no `getComponent`). */
function component(attribute: Pick<BufferAttribute, 'getX' | 'getY' | 'getZ' | 'getW'>, index: number, k: number): number {
  return k === 0 ? attribute.getX(index) : k === 1 ? attribute.getY(index) : k === 2 ? attribute.getZ(index) : attribute.getW(index)
}

/** A skinned vertex's joints (those with weight) must be bones of its skeleton. */
function checkJoints(mesh: SkinnedMesh, v: number): void {
  const joints = mesh.geometry.getAttribute('skinIndex')
  const weights = mesh.geometry.getAttribute('skinWeight')
  const bones = mesh.skeleton?.bones ?? []
  if (!joints || !weights)
    throw new MD2Error('BAD_ARGUMENT', `skinned mesh ${label(mesh)} has no ${joints ? 'skinWeight' : 'skinIndex'} attribute`, {
      section: 'skin',
    })
  for (let k = 0; k < Math.min(joints.itemSize, weights.itemSize); k++) {
    const weight = component(weights, v, k)
    if (!Number.isFinite(weight))
      throw new MD2Error('BAD_VALUE', `mesh ${label(mesh)} vertex ${v}: skin weight ${k} is ${weight}`, { section: 'skin' })
    const joint = component(joints, v, k)
    if (weight !== 0 && !bones[joint])
      throw new MD2Error(
        'BAD_INDEX',
        `mesh ${label(mesh)} vertex ${v} is bound to joint ${joint}, its skeleton has ${bones.length} bones`,
        {
          section: 'skin',
        },
      )
  }
}

/**
 * The vertices the parts' triangles use, and nothing else: a file may declare far more vertices than its
 * triangles reach, and the bake's time and memory follow what is written. Each index is checked against
 * its own mesh (not the merged count), each skinned vertex's joints against its skeleton.
 */
export function mergeParts(parts: readonly Part[], lookOf?: readonly Uint32Array[]): BakeSource {
  const corners = parts.reduce((sum, part) => sum + Math.floor(part.index.length / 3) * 3, 0)
  const index = new Uint32Array(corners)
  const merged: BakeSource['parts'] = []
  const looks: number[] = []
  let at = 0
  let next = 0
  parts.forEach(({ mesh, count, index: own }, p) => {
    // A vertex's number here, for the first look it is seen with; others (a seam between two materials) by key.
    const map = new Int32Array(count).fill(-1)
    const firstLook = new Uint32Array(count)
    const more = new Map<number, number>()
    const triangleLooks = lookOf?.[p]
    const locals: number[] = []
    const end = Math.floor(own.length / 3) * 3
    for (let c = 0; c < end; c++) {
      const v = own[c]!
      if (!(v >= 0 && v < count))
        throw new MD2Error('BAD_INDEX', `mesh ${label(mesh)} triangle ${Math.floor(c / 3)} uses vertex ${v}, the mesh has ${count}`, {
          section: 'geometry',
        })
      const look = triangleLooks?.[Math.floor(c / 3)] ?? 0
      let number: number | undefined
      if (map[v]! < 0) {
        number = map[v] = next++
        firstLook[v] = look
      } else if (firstLook[v] === look) number = map[v]!
      else {
        const key = look * count + v
        number = more.get(key)
        if (number === undefined) more.set(key, (number = next++))
      }
      if (number === next - 1 && looks.length < next) {
        locals.push(v)
        looks.push(look)
      }
      index[at++] = number
    }
    const skinned = (mesh as SkinnedMesh).isSkinnedMesh ? (mesh as SkinnedMesh) : undefined
    if (skinned) for (const v of new Set(locals)) checkJoints(skinned, v)
    merged.push({ mesh, locals: Uint32Array.from(locals) })
  })
  const source = { parts: merged, index, positions: new Float32Array(next * 3), looks: Uint32Array.from(looks) }
  bindPositions(source)
  return source
}

/**
 * Positions as the geometry holds them, placed by the node transforms: the bind pose, where skinning and
 * morph targets move nothing.
 */
function bindPositions(source: BakeSource): void {
  const vertex = new Vector3()
  let at = 0
  for (const { mesh, locals } of source.parts) {
    const position = mesh.geometry.getAttribute('position') as BufferAttribute
    for (const v of locals) {
      vertex.fromBufferAttribute(position, v)
      if (!(Number.isFinite(vertex.x) && Number.isFinite(vertex.y) && Number.isFinite(vertex.z)))
        throw new MD2Error('BAD_VALUE', `mesh ${label(mesh)} vertex ${v}: position (${vertex.x}, ${vertex.y}, ${vertex.z})`, {
          section: 'geometry',
        })
      vertex.applyMatrix4(mesh.matrixWorld)
      source.positions.set([vertex.x, vertex.y, vertex.z], at)
      at += 3
    }
  }
}

/** The source reduced to the vertices `index` (over the source's numbering) uses, renumbered in order. */
export function keepUsed(source: BakeSource, index: Uint32Array): BakeSource {
  const count = source.positions.length / 3
  const map = new Int32Array(count).fill(-1)
  for (const v of index) map[v] = 0
  let next = 0
  for (let v = 0; v < count; v++) if (map[v] === 0) map[v] = next++
  const positions = new Float32Array(next * 3)
  const looks = new Uint32Array(next)
  for (let v = 0; v < count; v++)
    if (map[v]! >= 0) {
      positions.set(source.positions.subarray(v * 3, v * 3 + 3), map[v]! * 3)
      looks[map[v]!] = source.looks[v]!
    }
  let first = 0
  const parts = source.parts.map(({ mesh, locals }) => {
    const kept = locals.filter((_, i) => map[first + i]! >= 0)
    first += locals.length
    return { mesh, locals: kept }
  })
  return { parts, index: index.map((v) => map[v]!), positions, looks }
}

/**
 * What the simplifier weighs besides position (world normal, uv; 5 per vertex), and for each vertex the
 * first one identical to it in every frame: same mesh, geometry position, uv, skin and morph targets. A look
 * `unmapped` says shows no map (a flat colour) has its uv neither weighed nor kept apart: it draws the same.
 */
export function simplifierAttributes(
  source: BakeSource,
  unmapped?: (look: number) => boolean,
): { attributes: Float32Array; same: Uint32Array } {
  const count = source.positions.length / 3
  const attributes = new Float32Array(count * 5)
  const same = new Uint32Array(count)
  const first = new Map<string, number>()
  const normal = new Vector3()
  const normalMatrix = new Matrix3()
  let at = 0
  source.parts.forEach(({ mesh, locals }, p) => {
    const geometry = mesh.geometry
    const normals = geometry.getAttribute('normal')
    const uvs = geometry.getAttribute('uv')
    const identity = [
      geometry.getAttribute('position'),
      uvs,
      geometry.getAttribute('skinIndex'),
      geometry.getAttribute('skinWeight'),
      ...(geometry.morphAttributes.position ?? []),
    ].filter((attribute) => attribute !== undefined)
    normalMatrix.getNormalMatrix(mesh.matrixWorld)
    for (const v of locals) {
      const flat = unmapped?.(source.looks[at]!) ?? false
      if (normals)
        normal
          .fromBufferAttribute(normals as BufferAttribute, v)
          .applyMatrix3(normalMatrix)
          .normalize()
      else normal.set(0, 0, 0)
      attributes.set([normal.x || 0, normal.y || 0, normal.z || 0, uvs && !flat ? uvs.getX(v) : 0, uvs && !flat ? uvs.getY(v) : 0], at * 5)
      let key = `${p} ${source.looks[at]}`
      for (const attribute of identity)
        if (!(flat && attribute === uvs)) for (let k = 0; k < attribute.itemSize; k++) key += ` ${component(attribute, v, k)}`
      const found = first.get(key)
      if (found === undefined) first.set(key, at)
      same[at] = found ?? at
      at++
    }
  })
  return { attributes, same }
}

/** Distinct positions among the vertices `index` uses (all when omitted): the fewest MD2 vertices once welded. */
export function distinctPositions(positions: Float32Array, index?: Uint32Array): number {
  const seen = new Set<string>()
  const add = (v: number) => seen.add(`${positions[v * 3]} ${positions[v * 3 + 1]} ${positions[v * 3 + 2]}`)
  if (index) for (const v of index) add(v)
  else for (let v = 0; v < positions.length / 3; v++) add(v)
  return seen.size
}
