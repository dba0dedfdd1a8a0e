/** glTF files made from a .glb for the CLI's tests: another texture, or a .gltf with its buffer and image beside it. */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { deflateSync } from 'node:zlib'
import { readGLB } from '../../src/core/gltf/glb'

/** The .glb with its image's bytes replaced (and its MIME type). */
export { withImage } from '../../stories/support/rig'

/**
 * The .glb as `dir/name.gltf` with its binary chunk in `dir/name.bin` and its image in `dir/name.png`, then
 * the URIs changed as asked (the files stay where they are: a test moves or links what the URIs name).
 */
export function writeGLTF(
  glb: Uint8Array,
  dir: string,
  name: string,
  { bufferUri, imageUri, byteLength }: { bufferUri?: string; imageUri?: string; byteLength?: number } = {},
): { gltf: string; bin: Uint8Array; png: Uint8Array } {
  const { json, bin } = readGLB(glb)
  const image = (json.images as { bufferView?: number; uri?: string; mimeType?: string }[])[0]!
  const view = (json.bufferViews as { byteOffset: number; byteLength: number }[])[image.bufferView!]!
  const png = bin.slice(view.byteOffset, view.byteOffset + view.byteLength)
  delete image.bufferView
  delete image.mimeType
  image.uri = imageUri ?? `${name}.png`
  const buffer = (json.buffers as { uri?: string; byteLength: number }[])[0]!
  buffer.uri = bufferUri ?? `${name}.bin`
  if (byteLength !== undefined) buffer.byteLength = byteLength
  writeFileSync(join(dir, `${name}.bin`), bin)
  writeFileSync(join(dir, `${name}.png`), png)
  const gltf = join(dir, `${name}.gltf`)
  writeFileSync(gltf, JSON.stringify(json))
  return { gltf, bin, png }
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length)
  const view = new DataView(out.buffer)
  view.setUint32(0, data.length)
  out.set(new TextEncoder().encode(type), 4)
  out.set(data, 8)
  let crc = 0xffffffff
  for (const byte of out.subarray(4, 8 + data.length)) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8)
  view.setUint32(8 + data.length, (crc ^ 0xffffffff) >>> 0)
  return out
}

/**
 * A PNG written byte by byte (not by the decoder's own library): IHDR, an optional PLTE and tRNS, and one
 * IDAT of `rows` (each row's samples packed as PNG packs them, a filter byte 0 added here).
 */
export function rawPNG(options: {
  width: number
  height: number
  colourType: 0 | 2 | 3 | 4 | 6
  depth: 1 | 2 | 4 | 8 | 16
  row: (y: number) => Uint8Array
  palette?: Uint8Array
  trns?: Uint8Array
}): Uint8Array {
  const { width, height, colourType, depth, row } = options
  const ihdr = new Uint8Array(13)
  const view = new DataView(ihdr.buffer)
  view.setUint32(0, width)
  view.setUint32(4, height)
  ihdr.set([depth, colourType, 0, 0, 0], 8)
  const rows: Uint8Array[] = []
  for (let y = 0; y < height; y++) rows.push(new Uint8Array([0]), row(y))
  const raw = Buffer.concat(rows)
  const parts = [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr)]
  if (options.palette) parts.push(chunk('PLTE', options.palette))
  if (options.trns) parts.push(chunk('tRNS', options.trns))
  parts.push(chunk('IDAT', new Uint8Array(deflateSync(raw))), chunk('IEND', new Uint8Array(0)))
  return new Uint8Array(Buffer.concat(parts))
}
