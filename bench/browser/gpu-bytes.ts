import type { BufferGeometry, Mesh, Object3D } from 'three'

/** GPU bytes: every distinct attribute and index of the scene's geometries, plus morph textures as three builds them. */
export function gpuBytes(scene: Object3D, maxTextureSize: number): Record<string, number> {
  const geometries = new Set<BufferGeometry>()
  scene.traverse((object) => {
    if ((object as Mesh).isMesh) geometries.add((object as Mesh).geometry)
  })
  const seen = new Set<unknown>()
  const bytes = { shared: 0, perInstance: 0, morphTexture: 0, geometries: geometries.size }
  const attributeUsers = new Map<unknown, number>()
  for (const geometry of geometries) {
    for (const attribute of [...Object.values(geometry.attributes), geometry.index]) {
      if (attribute) attributeUsers.set(attribute, (attributeUsers.get(attribute) ?? 0) + 1)
    }
  }
  for (const geometry of geometries) {
    for (const attribute of [...Object.values(geometry.attributes), geometry.index]) {
      if (!attribute || seen.has(attribute)) continue
      seen.add(attribute)
      const size = (attribute.array as ArrayBufferView).byteLength
      if ((attributeUsers.get(attribute) ?? 0) > 1) bytes.shared += size
      else bytes.perInstance += size
    }
    const morph = geometry.morphAttributes.position
    if (morph?.length && !seen.has(morph)) {
      seen.add(morph)
      const perVertex = geometry.morphAttributes.normal ? 2 : 1
      let width = geometry.attributes.position!.count * perVertex
      let height = 1
      if (width > maxTextureSize) {
        height = Math.ceil(width / maxTextureSize)
        width = maxTextureSize
      }
      bytes.morphTexture += width * height * 16 * morph.length
    }
  }
  return bytes
}
