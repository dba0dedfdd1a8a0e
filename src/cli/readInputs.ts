import { DataTexture, Texture } from 'three'
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { MD2Error, isMD2Error } from '../core/MD2Error.js'
import { packGLB, readGLB, type GLBContents } from '../core/gltf/glb.js'
import { sniffImageType, type DecodedImage } from '../core/images/decodedImage.js'
import { decodePCX } from '../core/images/pcx.js'
import { decodeJPEG } from '../core/images/decodeJPEG.js'
import { decodePNG } from '../core/images/decodePNG.js'
import { SKIN_PIXEL_BUDGET } from '../core/images/engineSkin.js'
import { decodeTGA } from '../core/images/tga.js'
import { CliFailure, RunBudget, fileInside, folderOf, readInput, type CliIO } from './common.js'
import { loadWithThree } from './abandonedParts.js'

/**
 * Reading convert's inputs: skins, and glTF files with what they name. Everything read is bounded: a skin
 * by the pixel budget (checked from its header), a glTF's buffers and images by their declared lengths, URIs
 * to files at or below the glTF's folder (or the `--resources` folder).
 */

/** The most bytes a skin or glTF file given on the command line may have (a 256 MiB file is not a skin). */
export const MAX_INPUT_BYTES = 256 * 1024 * 1024

/** The budget gltfContents counted a glTF's reading against, for decodeMeshopt and loadGLTF to go on counting. */
const budgets = new WeakMap<object, RunBudget>()

/** A skin image (.pcx, .tga, .png) as RGBA, within the pixel budget. */
export function decodeSkin(path: string, bytes: Uint8Array, type = /\.(pcx|tga|png)$/i.exec(path)?.[1]?.toLowerCase()): DecodedImage {
  const options = { name: path, maxPixels: SKIN_PIXEL_BUDGET }
  if (type === 'pcx') return decodePCX(bytes, options)
  if (type === 'tga') return decodeTGA(bytes, options)
  if (type === 'png') return decodePNG(bytes, options)
  throw new CliFailure(`${path}: --skin takes a .pcx, .tga or .png image`)
}

/** Reads a skin file (named on the command line, or, with `inside`, by a model and kept in that folder). */
export function readSkin(path: string, io: CliIO, inside?: string): DecodedImage {
  return decodeSkin(path, readInput(path, io, { maxBytes: MAX_INPUT_BYTES, ...(inside !== undefined ? { inside } : {}) }))
}

/** A glTF input named on the command line, read once a run: a URI that read all of it before gives its bytes. */
export function readInputOnce(path: string, io: CliIO, budget: RunBudget): Uint8Array {
  const real = io.realPath(path)
  const known = budget.files.get(real)
  if (known && (known.limit >= MAX_INPUT_BYTES || known.bytes.length < known.limit)) return known.bytes
  const bytes = readInput(path, io, { maxBytes: MAX_INPUT_BYTES })
  budget.charge(bytes.length - (known?.bytes.length ?? 0), path, path)
  budget.files.set(real, { bytes, limit: MAX_INPUT_BYTES })
  return bytes
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

/** Where a URI leads: a data: URI's text, or the file (and its real path, the key of `RunBudget.files`). */
type URITarget = { data: string } | { path: string; real: string }

function uriTarget(input: string, uri: unknown, what: string, root: string, io: CliIO): URITarget {
  if (typeof uri !== 'string') throw new MD2Error('OUT_OF_RANGE', `${what}: uri is not a string`, { section: 'gltf', file: input })
  const data = /^data:[^,]*;base64,(.*)$/s.exec(uri)
  if (data) return { data: data[1]! }
  const path = fileInside(input, uri, root, io)
  return { path, real: io.realPath(path) }
}

/**
 * Every URI a glTF names, read by one function before three's loader sees the file: a data: URI decoded, a
 * relative one read from a file at or below `root` (`fileInside`), anything else (a scheme such as http:
 * or file:, an absolute path, `..` leading out) refused naming `input` and the URI. At most `maxBytes`;
 * a file is read once a run (`budget.files`, by real path), as far as `readTo` (the most any URI of it
 * asks for), every read counted against the budget.
 */
function readURI(
  input: string,
  uri: unknown,
  maxBytes: number,
  what: string,
  root: string,
  io: CliIO,
  budget: RunBudget,
  readTo = maxBytes,
): { data: Uint8Array; whole: Uint8Array } {
  const target = uriTarget(input, uri, what, root, io)
  if ('data' in target) {
    // Base64 holds 3 bytes in 4 characters: decode no more than the declared length needs.
    const wanted = Number.isFinite(maxBytes) ? target.data.slice(0, Math.ceil(maxBytes / 3) * 4) : target.data
    budget.charge(Math.ceil((wanted.length * 3) / 4), `${what} (a data: URI)`, input)
    try {
      const decoded = fromBase64(wanted.replace(/\s/g, ''))
      const data = decoded.length > maxBytes ? decoded.subarray(0, maxBytes) : decoded
      return { data, whole: data }
    } catch {
      throw new MD2Error('OUT_OF_RANGE', `${what}: data URI is not base64`, { section: 'gltf', file: input })
    }
  }
  const known = budget.files.get(target.real)
  // Read before as far as this asks, or the whole file was (shorter than that): no second read.
  if (known && (known.limit >= maxBytes || known.bytes.length < known.limit))
    return { data: known.bytes.subarray(0, maxBytes), whole: known.bytes }
  const limit = Math.min(MAX_INPUT_BYTES, Math.max(readTo, maxBytes))
  let bytes: Uint8Array
  try {
    bytes = readInput(target.path, io, { maxBytes: limit, inside: root })
  } catch (error) {
    // Named from the glTF that names it: the buffer file alone does not say which input wanted it.
    if (error instanceof CliFailure) throw new CliFailure(`${input}: ${what} "${uri}": ${error.message}`)
    throw error
  }
  // Counted as read (one file holds at most MAX_INPUT_BYTES); a file read again further counts what it adds.
  budget.charge(bytes.length - (known?.bytes.length ?? 0), `${what} "${String(uri)}"`, input)
  budget.files.set(target.real, { bytes, limit })
  return { data: bytes.subarray(0, maxBytes), whole: bytes }
}

function parseGLTFJSON(input: string, bytes: Uint8Array): Record<string, unknown> {
  let json: Record<string, unknown>
  try {
    json = JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>
  } catch (error) {
    throw new MD2Error('BAD_MAGIC', `not a glTF JSON file (${error instanceof Error ? error.message : String(error)})`, {
      section: 'gltf',
      file: input,
    })
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new MD2Error('BAD_MAGIC', 'not a glTF JSON file (not an object)', { section: 'gltf', file: input })
  return json
}

type MeshoptDef = {
  buffer?: unknown
  byteOffset?: unknown
  byteLength?: unknown
  byteStride?: unknown
  count?: unknown
  mode?: unknown
  filter?: unknown
}
type ViewDef = { buffer: number; byteOffset?: number; extensions?: { EXT_meshopt_compression?: MeshoptDef } }

/**
 * A `.glb` or `.gltf` and every buffer it names as one binary chunk, each buffer read (`readURI`) up to
 * its declared `byteLength` and no further: a `.glb`'s first buffer without a URI is its binary chunk.
 * Image URIs are read the same way (up to MAX_INPUT_BYTES) and kept for `imageBytesOf`; no URI is left
 * in what is returned, so three's loader is never handed one it could fetch.
 */
export function gltfContents(input: string, bytes: Uint8Array, io: CliIO, resources?: string, budget = new RunBudget()): GLBContents {
  const glb = /\.glb$/i.test(input) ? readGLB(bytes, { name: input }) : undefined
  const json = glb?.json ?? parseGLTFJSON(input, bytes)
  budgets.set(json, budget)
  const root = resources ?? (folderOf(input) || '.')
  // The input itself is read already: a URI naming it reads nothing more.
  const self = io.realPath(input)
  if (!budget.files.has(self)) budget.files.set(self, { bytes, limit: MAX_INPUT_BYTES })
  type BufferDef = { uri?: unknown; byteLength?: unknown; extensions?: { EXT_meshopt_compression?: { fallback?: unknown } } }
  const buffers = Array.isArray(json.buffers) ? (json.buffers as BufferDef[]) : []
  type ImageDef = { uri?: unknown; bufferView?: number; mimeType?: string }
  const images = Array.isArray(json.images) ? (json.images as ImageDef[]) : []
  // How far each file is read: the most any buffer naming it declares (an image: all of it), so once; and
  // how much of it the binary data holds (the most a buffer declares).
  const readTo = new Map<string, number>()
  const reach = new Map<string, number>()
  const realOf = (uri: unknown): string | undefined => {
    if (typeof uri !== 'string' || uri.startsWith('data:')) return undefined
    try {
      const target = uriTarget(input, uri, '', root, io)
      return 'real' in target ? target.real : undefined
    } catch {
      return undefined // Refused when it is read, in its turn.
    }
  }
  const most = (map: Map<string, number>, key: string | undefined, length: unknown) => {
    if (key !== undefined && typeof length === 'number') map.set(key, Math.max(map.get(key) ?? 0, length))
  }
  buffers.forEach((buffer) => {
    most(readTo, realOf(buffer?.uri), buffer?.byteLength)
    most(reach, realOf(buffer?.uri), buffer?.byteLength)
  })
  images.forEach((image) => most(readTo, realOf(image?.uri), MAX_INPUT_BYTES))
  const offsets: number[] = []
  const parts: { bytes: Uint8Array; at: number }[] = []
  // Buffers naming one file share its place in the binary data: 100 buffers of one file hold it once.
  const placed = new Map<Uint8Array, number>()
  let length = 0
  buffers.forEach((buffer, index) => {
    const declared = buffer?.byteLength
    if (typeof declared !== 'number' || !Number.isInteger(declared) || declared < 0 || declared > MAX_INPUT_BYTES)
      throw new MD2Error('OUT_OF_RANGE', `buffer ${index}: byteLength ${String(declared)} is not a length up to ${MAX_INPUT_BYTES}`, {
        section: 'gltf',
        file: input,
      })
    // A meshopt fallback holds nothing: its views are decoded from the compressed ones (decodeMeshopt).
    const fallback = buffer.uri === undefined && buffer.extensions?.EXT_meshopt_compression?.fallback === true
    const real = realOf(buffer.uri)
    const { data, whole } =
      buffer.uri !== undefined
        ? readURI(input, buffer.uri, declared, `buffer ${index}`, root, io, budget, real === undefined ? declared : readTo.get(real))
        : { data: index === 0 && glb ? glb.bin.subarray(0, declared) : new Uint8Array(0), whole: undefined }
    if (data.length < declared && !fallback)
      throw new MD2Error('TRUNCATED', `buffer ${index}: ${data.length} bytes, ${declared} declared`, { section: 'gltf', file: input })
    const at = whole && placed.get(whole)
    if (at !== undefined) {
      offsets.push(at)
      return
    }
    const part = fallback
      ? new Uint8Array(0)
      : whole && real !== undefined
        ? whole.subarray(0, Math.max(declared, reach.get(real) ?? 0))
        : data
    if (whole) placed.set(whole, length)
    offsets.push(length)
    parts.push({ bytes: part, at: length })
    length += Math.ceil(part.length / 4) * 4
  })
  // The binary data put together: allocated once, counted first.
  budget.charge(length, `the binary data of ${buffers.length} buffer${buffers.length === 1 ? '' : 's'}`, input)
  const bin = new Uint8Array(length)
  for (const { bytes: part, at } of parts) bin.set(part, at)
  for (const view of Array.isArray(json.bufferViews) ? (json.bufferViews as ViewDef[]) : []) {
    // A view of a buffer that is not there keeps its index, for checkGLTF to name.
    if (typeof view !== 'object' || view === null || offsets[view.buffer] === undefined) continue
    view.byteOffset = (typeof view.byteOffset === 'number' ? view.byteOffset : 0) + offsets[view.buffer]!
    view.buffer = 0
    const meshopt = view.extensions?.EXT_meshopt_compression
    if (typeof meshopt === 'object' && meshopt !== null && typeof meshopt.buffer === 'number' && offsets[meshopt.buffer] !== undefined) {
      meshopt.byteOffset = (typeof meshopt.byteOffset === 'number' ? meshopt.byteOffset : 0) + offsets[meshopt.buffer]!
      meshopt.buffer = 0
    }
  }
  images.forEach((image, index) => {
    if (typeof image !== 'object' || image === null || image.uri === undefined) return
    // A missing image leaves the skin out with a note; one outside the folder is refused.
    try {
      imageBytes.set(image, readURI(input, image.uri, MAX_INPUT_BYTES, `image ${index}`, root, io, budget).data)
    } catch (error) {
      if (error instanceof MD2Error) throw error
    }
    delete image.uri
  })
  json.buffers = [{ byteLength: length }]
  return { json, bin }
}

const MESHOPT_MODES = new Set(['ATTRIBUTES', 'TRIANGLES', 'INDICES'])
const MESHOPT_FILTERS = new Set(['NONE', 'OCTAHEDRAL', 'QUATERNION', 'EXPONENTIAL', 'COLOR'])

/**
 * Views compressed with `EXT_meshopt_compression` (gltfpack's output) decoded by meshoptimizer's decoder
 * and appended to the binary chunk, the views pointed at them: three's loader then reads plain views. The
 * decoded bytes (count × stride each) are bounded by MAX_INPUT_BYTES in all.
 */
export async function decodeMeshopt(input: string, contents: GLBContents): Promise<GLBContents> {
  const views = Array.isArray(contents.json.bufferViews) ? (contents.json.bufferViews as ViewDef[]) : []
  const compressed = views.flatMap((view, i) => {
    const ext = typeof view === 'object' && view !== null ? view.extensions?.EXT_meshopt_compression : undefined
    return ext === undefined ? [] : [{ view, ext, at: `bufferViews[${i}].extensions.EXT_meshopt_compression` }]
  })
  if (compressed.length === 0) return contents
  const fail = (at: string, why: string): never => {
    throw new MD2Error('OUT_OF_RANGE', `${at} ${why}`, { section: 'gltf', file: input })
  }
  const whole = (at: string, value: unknown, min: number, max: number): number => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
      fail(at, `${JSON.stringify(value) ?? 'undefined'} is not a whole number from ${min} to ${max}`)
    return value as number
  }
  let total = 0
  const plans = compressed.map(({ view, ext, at }) => {
    if (typeof ext !== 'object' || ext === null) return fail(at, 'is not an object')
    whole(`${at}.buffer`, ext.buffer, 0, 0)
    const offset = whole(`${at}.byteOffset`, ext.byteOffset ?? 0, 0, contents.bin.length)
    const length = whole(`${at}.byteLength`, ext.byteLength, 1, contents.bin.length - offset)
    const stride = whole(`${at}.byteStride`, ext.byteStride, 1, 256)
    const count = whole(`${at}.count`, ext.count, 1, MAX_INPUT_BYTES)
    if (!MESHOPT_MODES.has(ext.mode as string)) fail(`${at}.mode`, `${JSON.stringify(ext.mode)} is not ATTRIBUTES, TRIANGLES or INDICES`)
    if (ext.filter !== undefined && !MESHOPT_FILTERS.has(ext.filter as string))
      fail(`${at}.filter`, `${JSON.stringify(ext.filter)} is not a meshopt filter`)
    total += Math.ceil((count * stride) / 4) * 4
    if (total > MAX_INPUT_BYTES) fail(at, `decodes to more than ${MAX_INPUT_BYTES} bytes in all (the most convert reads)`)
    return { view, ext, at, source: contents.bin.subarray(offset, offset + length), stride, count }
  })
  // The binary data again, with the decoded views after it.
  budgets.get(contents.json)?.charge(contents.bin.length + total, 'decoding EXT_meshopt_compression', input)
  const { MeshoptDecoder } = await import('meshoptimizer/decoder')
  await MeshoptDecoder.ready
  const bin = new Uint8Array(contents.bin.length + total)
  bin.set(contents.bin)
  let end = contents.bin.length
  for (const { view, ext, at, source, stride, count } of plans) {
    const target = bin.subarray(end, end + count * stride)
    try {
      MeshoptDecoder.decodeGltfBuffer(target, count, stride, source, ext.mode as string, (ext.filter as string | undefined) ?? 'NONE')
    } catch (error) {
      fail(at, `does not decode (${error instanceof Error ? error.message : String(error)})`)
    }
    Object.assign(view, { buffer: 0, byteOffset: end, byteLength: count * stride })
    delete view.extensions!.EXT_meshopt_compression
    end += Math.ceil((count * stride) / 4) * 4
  }
  const json = contents.json
  for (const key of ['extensionsUsed', 'extensionsRequired'])
    if (Array.isArray(json[key])) json[key] = (json[key] as unknown[]).filter((name) => name !== 'EXT_meshopt_compression')
  json.buffers = [{ byteLength: bin.length }]
  const budget = budgets.get(contents.json)
  if (budget) budgets.set(json, budget)
  return { json, bin }
}

/** Bytes of images given by URI in a `.gltf`. */
const imageBytes = new WeakMap<object, Uint8Array>()

/** An image's bytes: read from its URI by `gltfContents`, or its buffer view. */
export function imageBytesOf(
  json: Record<string, unknown>,
  bin: Uint8Array,
  image: { bufferView?: number } | undefined,
): Uint8Array | undefined {
  if (!image) return undefined
  const read = imageBytes.get(image)
  if (read) return read
  if (image.bufferView === undefined) return undefined
  const view = (json.bufferViews as { byteOffset?: number; byteLength: number }[] | undefined)?.[image.bufferView]
  if (!view) return undefined
  const start = view.byteOffset ?? 0
  return bin.subarray(start, start + view.byteLength)
}

/** Node cannot draw images: the loader is handed the glTF's PNG and JPEG textures decoded here (WebP and others are not). */
function nodeTextures(json: Record<string, unknown>, bin: Uint8Array, input: string, fit: (image: DecodedImage) => DecodedImage) {
  type TextureDef = { source?: number; extensions?: Record<string, { source?: number }> }
  type MaterialDef = { pbrMetallicRoughness?: { baseColorTexture?: { index?: unknown } } }
  // Only base-colour maps become skins: other maps are not decoded (a normal map costs nothing).
  const baseColour = new Set(
    (Array.isArray(json.materials) ? (json.materials as MaterialDef[]) : []).map(
      (material) => material?.pbrMetallicRoughness?.baseColorTexture?.index,
    ),
  )
  // Each image is decoded once, however many textures use it (by its bytes: several URIs may name one file).
  const decodedOnce = new WeakMap<ArrayBufferLike, Map<string, DecodedImage | MD2Error>>()
  const budget = budgets.get(json)
  return () => ({
    name: 'react-three-md2:node-textures',
    loadTexture(index: number): Promise<Texture> {
      if (!baseColour.has(index)) return Promise.resolve(Object.assign(new Texture(), { userData: { undecoded: 'not a base colour' } }))
      const def = ((json.textures as TextureDef[] | undefined) ?? [])[index] ?? {}
      const source = def.source ?? Object.values(def.extensions ?? {}).find((ext) => ext.source !== undefined)?.source
      const image =
        source === undefined ? undefined : ((json.images as { bufferView?: number; mimeType?: string }[] | undefined) ?? [])[source]
      const bytes = imageBytesOf(json, bin, image)
      const type = bytes ? sniffImageType(bytes) : undefined
      if (!bytes || (type !== 'png' && type !== 'jpeg')) {
        const texture = new Texture()
        // Said as "its base-colour texture …" by the bake, which bakes the material's colour instead.
        texture.userData.undecoded = !bytes
          ? 'is neither in the file nor beside it'
          : type === undefined || type === 'tga' || type === 'pcx'
            ? 'is not an image (neither PNG nor JPEG)'
            : `is ${type.toUpperCase()}, which convert cannot decode in Node`
        return Promise.resolve(texture)
      }
      let byOffset = decodedOnce.get(bytes.buffer)
      if (!byOffset) decodedOnce.set(bytes.buffer, (byOffset = new Map()))
      const key = `${bytes.byteOffset}:${bytes.length}`
      let decoded = byOffset.get(key)
      if (decoded === undefined) {
        decoded = decodeTexture(bytes, type, `${input} (image ${source})`, fit, input, budget)
        byOffset.set(key, decoded)
      }
      if (decoded instanceof MD2Error)
        // A damaged texture costs its pixels, not the model: the bake says so and uses the material's colour.
        return Promise.resolve(
          Object.assign(new Texture(), {
            userData: { undecoded: `is a damaged ${type.toUpperCase()} (image ${source}: ${decoded.reason})` },
          }),
        )
      // Textures of one image share its pixels (the skin atlas gives them one place).
      const texture = new DataTexture(decoded.data, decoded.width, decoded.height)
      texture.flipY = false
      texture.needsUpdate = true
      return Promise.resolve(texture)
    },
  })
}

/** Bytes a decode holds per pixel at its peak: the decoder's RGBA and the fitted copy. */
const DECODE_BYTES_PER_PIXEL = 8

/**
 * A texture decoded and fitted, its pixels counted against the budget from its header before decoding: the
 * decoder is given at most the pixels left (`maxPixels`, checked from the header before anything is
 * allocated), and a refusal for that reason is the budget's. A damaged image is returned as its error.
 */
function decodeTexture(
  bytes: Uint8Array,
  type: 'png' | 'jpeg',
  name: string,
  fit: (image: DecodedImage) => DecodedImage,
  input: string,
  budget: RunBudget | undefined,
): DecodedImage | MD2Error {
  const left = budget ? Math.floor((budget.limit - budget.used) / DECODE_BYTES_PER_PIXEL) : Infinity
  const maxPixels = Math.min(SKIN_PIXEL_BUDGET, left)
  try {
    const image = type === 'png' ? decodePNG(bytes, { name, maxPixels }) : decodeJPEG(bytes, { name, maxPixels })
    budget?.charge(image.width * image.height * DECODE_BYTES_PER_PIXEL, `decoding ${name}`, input)
    return fit(image)
  } catch (error) {
    if (!isMD2Error(error) || error.section === 'budget') throw error
    const size = /(\d+) × (\d+) pixels is more than the limit/.exec(error.reason)
    if (budget && size && maxPixels < SKIN_PIXEL_BUDGET && Number(size[1]) * Number(size[2]) <= SKIN_PIXEL_BUDGET)
      budget.charge(Number(size[1]) * Number(size[2]) * DECODE_BYTES_PER_PIXEL, `decoding ${name} (${size[1]} × ${size[2]} pixels)`, input)
    return error
  }
}

/** Extensions convert reads past: texture and material variants (the base colour is what it keeps); three reads quantized meshes. */
const READ_PAST = /^KHR_(texture_transform|texture_basisu|materials_|mesh_quantization$)|^EXT_texture_(webp|avif)$/

/**
 * Parses glTF contents with three's loader. With `fitTexture`, PNG textures are decoded (each through it, so
 * a skin is measured at the size it is written); without, images are dropped before loading.
 */
export async function loadGLTF(
  input: string,
  { json, bin }: GLBContents,
  fitTexture?: (image: DecodedImage) => DecodedImage,
): Promise<Awaited<ReturnType<GLTFLoader['parseAsync']>>> {
  const required = Array.isArray(json.extensionsRequired) ? (json.extensionsRequired as unknown[]) : []
  const unsupported = required.filter((name) => typeof name !== 'string' || !READ_PAST.test(name))
  if (unsupported.length > 0)
    throw new MD2Error('UNSUPPORTED', `needs ${unsupported.map(String).join(', ')}, which convert does not decode`, {
      section: 'gltf',
      file: input,
    })
  json.extensionsRequired = []
  const loader = new GLTFLoader()
  if (fitTexture) loader.register(nodeTextures(json, bin, input, fitTexture))
  else dropImages(json)
  // Three's loader reads the whole asset packed again (its views are views of it, not copies).
  budgets.get(json)?.charge(bin.length, 'the glTF handed to three\u2019s loader', input)
  try {
    // packGLB's bytes are a buffer of their own: handed over as they are.
    return await loadWithThree(() => loader.parseAsync(packGLB(json, bin).buffer as ArrayBuffer, ''))
  } catch (error) {
    if (error instanceof MD2Error) throw error
    throw new MD2Error('LOAD_FAILED', `three's glTF loader refused it: ${error instanceof Error ? error.message : String(error)}`, {
      section: 'gltf',
      file: input,
      cause: error,
    })
  }
}

/** Geometry and animation only: images need a browser to decode, and MD2 keeps its skin apart. */
export function dropImages(json: Record<string, unknown>): void {
  delete json.images
  delete json.textures
  delete json.samplers
  type Material = {
    normalTexture?: unknown
    occlusionTexture?: unknown
    emissiveTexture?: unknown
    extensions?: unknown
    pbrMetallicRoughness?: { baseColorTexture?: unknown; metallicRoughnessTexture?: unknown }
  }
  for (const material of Array.isArray(json.materials) ? (json.materials as Material[]) : []) {
    if (typeof material !== 'object' || material === null) continue
    delete material.normalTexture
    delete material.occlusionTexture
    delete material.emissiveTexture
    delete material.extensions
    if (typeof material.pbrMetallicRoughness === 'object' && material.pbrMetallicRoughness !== null) {
      delete material.pbrMetallicRoughness.baseColorTexture
      delete material.pbrMetallicRoughness.metallicRoughnessTexture
    }
  }
}
