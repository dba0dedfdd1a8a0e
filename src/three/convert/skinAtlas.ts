import { Color, MirroredRepeatWrapping, RepeatWrapping, type BufferAttribute, type Material, type Mesh, type Texture } from 'three'
import { SRGB_TO_LINEAR, linearToSrgb8 } from '../../core/images/colorLab.js'
import type { DecodedImage } from '../../core/images/decodedImage.js'
import { engineSkinSize } from '../../core/images/engineSkin.js'
import { resampleImage } from '../../core/images/resampleImage.js'
import { skinImageOf } from './skinImage.js'

/**
 * One skin from every material a bake draws with: MD2 has one skin image per model, and a character's look is
 * spread over several materials (each a base-colour map, a base-colour factor, vertex colours, or none of them).
 * Each look gets a place in one image (an atlas): a map its own region (tinted by its factor, tiled as far as its
 * texture coordinates repeat it, its edges padded against bleeding), a flat colour a small block; the baked
 * vertices' texture coordinates are moved into their look's place.
 */

/** What a baked triangle looks like: its material's map (if any, and readable) and colour (linear RGB). */
export interface SkinLook {
  map: Texture | undefined
  color: [number, number, number]
}

/** The looks of the parts' triangles: `looks` once each, and for each part its triangles' look numbers. */
export interface LookTable {
  looks: SkinLook[]
  /** Per part, per triangle (of its own index, in order): its look. */
  triangles: Uint32Array[]
  /** Whether the looks need an atlas: more than one look, a tint, or no map at all (a skin is then made). */
  atlas: boolean
}

type Warn = (message: string) => void

/** A mesh's materials, one or an array of them alike. */
export const materialsOf = (mesh: Mesh) => (Array.isArray(mesh.material) ? mesh.material : [mesh.material]) as Material[]
/** Whether a linear colour factor leaves colours as they are. */
const isWhite = (color: readonly number[]) => color.every((c) => Math.abs(c - 1) < 1e-6)
const label = (mesh: Mesh, material: Material | undefined) =>
  material?.name ? `material "${material.name}"` : mesh.name ? `"${mesh.name}"` : 'an unnamed mesh'

/**
 * The look of each triangle of each part: its material (by the geometry's groups), its map when readable, its
 * colour factor, times the mean of its corners' vertex colours when the material uses them (MD2 has none: a
 * triangle's colour is kept, flat). Vertex colours are grouped to at most `MAX_COLOUR_LOOKS` distinct ones.
 */
export function lookTable(parts: readonly { mesh: Mesh; index: ArrayLike<number> }[], warn: Warn): LookTable {
  const looks: SkinLook[] = []
  const byKey = new Map<string, number>()
  const told = new Set<string>()
  const tellOnce = (message: string) => {
    if (told.has(message)) return
    told.add(message)
    warn(message)
  }
  // Vertex colours, per triangle, gathered first: their count chooses how finely they are told apart.
  const colours = parts.map(({ mesh, index }) => triangleColours(mesh, index))
  const distinct = new Set<number>()
  for (const list of colours) if (list) for (const key of list.keys) distinct.add(key)
  let bits = 8
  while (bits > 2 && countAt(distinct, bits) > MAX_COLOUR_LOOKS) bits--
  const base = new Color()
  const triangles = parts.map(({ mesh, index }, p) => {
    const count = Math.floor(index.length / 3)
    const out = new Uint32Array(count)
    const materials = materialsOf(mesh)
    const groups = Array.isArray(mesh.material) ? mesh.geometry.groups : []
    const materialOf = (t: number) => {
      if (groups.length === 0) return materials[0]
      for (const group of groups) if (t * 3 >= group.start && t * 3 < group.start + group.count) return materials[group.materialIndex ?? 0]
      return undefined
    }
    const vertexColours = colours[p]
    for (let t = 0; t < count; t++) {
      const material = materialOf(t) as (Material & { map?: Texture | null; color?: Color; vertexColors?: boolean }) | undefined
      let map = material?.map ?? undefined
      // A map a reader could not decode is said, its colour baked; one with no image yet (not loaded) is kept: as the
      // only look its coordinates are kept for a skin painted on them, in an atlas `buildSkinAtlas` says it.
      if (map && map.userData.undecoded) {
        // A reader that could not decode it says why (`userData.undecoded`: "is …").
        const why = typeof map.userData.undecoded === 'string' ? map.userData.undecoded : 'could not be read here'
        tellOnce(`${label(mesh, material)}: its base-colour texture ${why}; its colour is baked instead`)
        map = undefined
      }
      if (material?.color) base.copy(material.color)
      else base.setRGB(1, 1, 1)
      let key = map ? `m${mapKey(map)}` : 'c'
      if (material?.vertexColors && vertexColours) {
        if (map) tellOnce(`${label(mesh, material)}: its vertex colours are not baked over its texture (MD2 has one colour per texel)`)
        else {
          const c = vertexColours.linear.subarray(t * 3, t * 3 + 3)
          base.setRGB(base.r * quantize(c[0]!, bits), base.g * quantize(c[1]!, bits), base.b * quantize(c[2]!, bits))
        }
      }
      // Colours told apart as the skin stores them: 8-bit sRGB.
      key += ` ${linearToSrgb8(base.r)} ${linearToSrgb8(base.g)} ${linearToSrgb8(base.b)}`
      let look = byKey.get(key)
      if (look === undefined) {
        look = looks.length
        looks.push({ map, color: [base.r, base.g, base.b] })
        byKey.set(key, look)
      }
      out[t] = look
    }
    return out
  })
  if (bits < 8) warn(`vertex colours: ${distinct.size} different ones, baked as ${countAt(distinct, bits)} (${bits} bits a channel)`)
  const only = looks[0]
  const atlas = !(looks.length === 1 && only?.map && isWhite(only.color))
  return { looks, triangles, atlas }
}

/** A number per image (its pixels, or the image object), so that textures sharing one share a look. */
const imageIds = new WeakMap<object, number>()
let nextImageId = 0

/**
 * What makes a map's region: its image and how it is sampled. Textures of one image sampled alike (a glTF's
 * many textures of one file) are one look, painted once, rather than a copy each in the atlas.
 */
function mapKey(map: Texture): string {
  const image = map.image as { data?: object } | null | undefined
  const pixels = image?.data ?? image
  if (typeof pixels !== 'object' || pixels === null) return map.uuid
  let id = imageIds.get(pixels)
  if (id === undefined) imageIds.set(pixels, (id = nextImageId++))
  const { offset, repeat, center } = map
  return `${id} ${map.wrapS} ${map.wrapT} ${map.flipY} ${map.channel} ${offset.x} ${offset.y} ${repeat.x} ${repeat.y} ${map.rotation} ${center.x} ${center.y}`
}

/** The most distinct vertex colours given blocks of their own; more are grouped with coarser channels. */
export const MAX_COLOUR_LOOKS = 1024

/** A linear channel to `bits` bits of sRGB, and back to linear. */
const quantize = (linear: number, bits: number) => {
  if (bits >= 8) return linear
  const step = 255 / ((1 << bits) - 1)
  return SRGB_TO_LINEAR[Math.round(Math.round(linearToSrgb8(linear) / step) * step)]!
}

function countAt(keys: Set<number>, bits: number): number {
  if (bits >= 8) return keys.size
  const shift = 8 - bits
  const coarse = new Set<number>()
  for (const key of keys) coarse.add((((key >> 16) & 255) >> shift) * 65536 + (((key >> 8) & 255) >> shift) * 256 + ((key & 255) >> shift))
  return coarse.size
}

/** Each triangle's mean vertex colour (linear RGB), and its 8-bit sRGB key; undefined without vertex colours. */
function triangleColours(mesh: Mesh, index: ArrayLike<number>): { linear: Float32Array; keys: number[] } | undefined {
  const colour = mesh.geometry.getAttribute('color') as BufferAttribute | undefined
  if (!colour || !materialsOf(mesh).some((material) => (material as { vertexColors?: boolean } | undefined)?.vertexColors)) return undefined
  const count = Math.floor(index.length / 3)
  const linear = new Float32Array(count * 3)
  const keys: number[] = []
  for (let t = 0; t < count; t++) {
    let r = 0
    let g = 0
    let b = 0
    for (let k = 0; k < 3; k++) {
      const v = index[t * 3 + k]!
      r += colour.getX(v)
      g += colour.getY(v)
      b += colour.getZ(v)
    }
    const mean = [r / 3, g / 3, b / 3].map((x) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 1))
    linear.set(mean, t * 3)
    keys.push((linearToSrgb8(mean[0]!) << 16) | (linearToSrgb8(mean[1]!) << 8) | linearToSrgb8(mean[2]!))
  }
  return { linear, keys }
}

/** A look's place in the atlas, in texels: where its first tile starts, and how many tiles from which. */
interface Region {
  x: number
  y: number
  width: number
  height: number
  /** A map's image (top row first), its tiles (from `s0`, `t0`: whole numbers), and how it wraps; none for a colour block. */
  image?: DecodedImage
  s0: number
  t0: number
  tilesS: number
  tilesT: number
  clampS: boolean
  clampT: boolean
}

/** The atlas: its image, and where a look's texture coordinates land in it. */
export interface SkinAtlas {
  image: DecodedImage
  /**
   * Look `look`'s coordinates (its map's, after the map's transform, as glTF or three give them) in the
   * atlas, in three's convention (v up), written to `out`.
   */
  place(look: number, u: number, v: number, out: { x: number; y: number }): void
}

/** The most tiles of a repeating map one look's region holds; past it the coordinates are clamped (and said). */
const MAX_TILES = 16
/** Texels a colour block is wide, and a map's padding, at the written size. */
const BLOCK = 4
const PAD = 2

/**
 * Packs the looks into one image and fits it to what Quake II loads (or to `size`): each map's region (its
 * pixels times its colour factor, in linear light), tiled over the range `ranges[look]` of its coordinates
 * (s and t from the image's top, whole tiles) or clamped to one tile, padded by its edge texels; each flat colour
 * a block. `ranges[look]` is [sMin, sMax, tMin, tMax].
 */
export function buildSkinAtlas(
  table: LookTable,
  ranges: readonly Float64Array[],
  size: [number, number] | undefined,
  warn: Warn,
): SkinAtlas {
  const regions = table.looks.map((look, l): Region => {
    const colour = { x: 0, y: 0, width: BLOCK, height: BLOCK, s0: 0, t0: 0, tilesS: 1, tilesT: 1, clampS: true, clampT: true }
    if (!look.map) return colour
    let image: DecodedImage
    try {
      image = skinImageOf(look.map)
    } catch {
      warn(`texture "${look.map.name}" could not be read; its colour is baked instead`)
      table.looks[l] = { map: undefined, color: look.color }
      return colour
    }
    tint(image, look.color)
    const range = ranges[l]!
    const wrapS = look.map.wrapS === RepeatWrapping || look.map.wrapS === MirroredRepeatWrapping
    const wrapT = look.map.wrapT === RepeatWrapping || look.map.wrapT === MirroredRepeatWrapping
    let s0 = wrapS ? Math.floor(range[0]!) : 0
    let t0 = wrapT ? Math.floor(range[2]!) : 0
    let tilesS = wrapS ? Math.max(1, Math.ceil(range[1]!) - s0) : 1
    let tilesT = wrapT ? Math.max(1, Math.ceil(range[3]!) - t0) : 1
    let clampS = !wrapS
    let clampT = !wrapT
    if (!Number.isFinite(tilesS * tilesT) || tilesS * tilesT > MAX_TILES) {
      warn(
        `texture "${look.map.name}" repeats ${Number.isFinite(tilesS * tilesT) ? `${tilesS} × ${tilesT} times` : 'without end'} over its triangles; ` +
          `one copy is baked, the coordinates clamped to it`,
      )
      s0 = t0 = 0
      tilesS = tilesT = 1
      clampS = clampT = true
    }
    return { x: 0, y: 0, width: image.width * tilesS, height: image.height * tilesT, image, s0, t0, tilesS, tilesT, clampS, clampT }
  })
  const mirrored = table.looks.map((look) => [look.map?.wrapS === MirroredRepeatWrapping, look.map?.wrapT === MirroredRepeatWrapping])
  // Packed at full size first; when the fit shrinks it, blocks and padding are grown so that they survive.
  let layout = pack(regions, 1)
  let target = size ?? engineSkinSize(layout.width, layout.height)
  const shrink = Math.min(target[0] / layout.width, target[1] / layout.height)
  if (shrink < 1) {
    layout = pack(regions, 1 / shrink)
    target = size ?? engineSkinSize(layout.width, layout.height)
  }
  const full = paint(regions, layout)
  const image = full.width === target[0] && full.height === target[1] ? full : resampleImage(full, target[0], target[1])
  return {
    image,
    place(look, u, v, out) {
      const region = regions[look]!
      const map = table.looks[look]!.map
      if (!region.image || !map) {
        out.x = (region.x + region.width / 2) / layout.width
        out.y = 1 - (region.y + region.height / 2) / layout.height
        return
      }
      // Image coordinates from its top: glTF's textures are not flipped, three's own are.
      let s = u
      let t = map.flipY ? 1 - v : v
      s = region.clampS ? Math.min(1, Math.max(0, s)) : s - region.s0
      t = region.clampT ? Math.min(1, Math.max(0, t)) : t - region.t0
      // A mirrored tile is painted mirrored (`paint`), so the coordinates go on across it unchanged.
      s = Math.min(region.tilesS, Math.max(0, s))
      t = Math.min(region.tilesT, Math.max(0, t))
      out.x = (region.x + s * region.image.width) / layout.width
      out.y = 1 - (region.y + t * region.image.height) / layout.height
    },
  }

  function pack(list: Region[], grow: number): { width: number; height: number; pad: number } {
    const pad = Math.ceil(PAD * grow)
    const block = Math.ceil(BLOCK * grow)
    for (const region of list)
      if (!region.image) region.width = region.height = block
      else {
        region.width = region.image.width * region.tilesS
        region.height = region.image.height * region.tilesT
      }
    // Shelves, tallest first, about as wide as the total is square.
    const order = list.map((_, i) => i).sort((a, b) => list[b]!.height - list[a]!.height || list[b]!.width - list[a]!.width)
    const area = list.reduce((sum, r) => sum + (r.width + 2 * pad) * (r.height + 2 * pad), 0)
    const width = Math.max(...list.map((r) => r.width + 2 * pad), Math.ceil(Math.sqrt(area)))
    let x = 0
    let y = 0
    let shelf = 0
    for (const i of order) {
      const r = list[i]!
      const w = r.width + 2 * pad
      const h = r.height + 2 * pad
      if (x + w > width) {
        x = 0
        y += shelf
        shelf = 0
      }
      r.x = x + pad
      r.y = y + pad
      x += w
      shelf = Math.max(shelf, h)
    }
    return { width, height: y + shelf, pad }
  }

  function paint(list: Region[], layout: { width: number; height: number; pad: number }): DecodedImage {
    const { width, height, pad } = layout
    const data = new Uint8Array(width * height * 4)
    list.forEach((region, l) => {
      const look = table.looks[l]!
      const [mirrorS, mirrorT] = mirrored[l]!
      const block = look.color.map(linearToSrgb8)
      const source = region.image
      // The region and its padding: a padding texel repeats the region's nearest edge texel.
      for (let y = region.y - pad; y < region.y + region.height + pad; y++)
        for (let x = region.x - pad; x < region.x + region.width + pad; x++) {
          if (x < 0 || y < 0 || x >= width || y >= height) continue
          const at = (y * width + x) * 4
          if (!source) {
            data[at] = block[0]!
            data[at + 1] = block[1]!
            data[at + 2] = block[2]!
            data[at + 3] = 255
            continue
          }
          const rx = Math.min(region.width - 1, Math.max(0, x - region.x))
          const ry = Math.min(region.height - 1, Math.max(0, y - region.y))
          let sx = rx % source.width
          let sy = ry % source.height
          if (mirrorS && Math.floor(rx / source.width + region.s0) % 2 !== 0) sx = source.width - 1 - sx
          if (mirrorT && Math.floor(ry / source.height + region.t0) % 2 !== 0) sy = source.height - 1 - sy
          const from = (sy * source.width + sx) * 4
          data[at] = source.data[from]!
          data[at + 1] = source.data[from + 1]!
          data[at + 2] = source.data[from + 2]!
          data[at + 3] = source.data[from + 3]!
        }
    })
    return { width, height, data }
  }
}

/** Multiplies an sRGB image by a linear colour factor, in linear light (as a renderer applies glTF's base-colour factor). */
function tint(image: DecodedImage, factor: readonly [number, number, number]): void {
  if (isWhite(factor)) return
  const data = image.data
  for (let i = 0; i < data.length; i += 4)
    for (let k = 0; k < 3; k++) data[i + k] = linearToSrgb8(SRGB_TO_LINEAR[data[i + k]!]! * factor[k]!)
}
