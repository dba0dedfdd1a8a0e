import { toBytes } from '../bytes.js'
import { MD2Error } from '../MD2Error.js'

/** In every runtime the core runs in (Node, browsers, workers), though not in the core's ES-only lib. */
declare const TextEncoder: new () => { encode(text: string): Uint8Array }
declare const TextDecoder: new () => { decode(bytes: Uint8Array): string }

const GLB_MAGIC = 0x46546c67 // "glTF"
const CHUNK_JSON = 0x4e4f534a
const CHUNK_BIN = 0x004e4942

/** A glTF asset as its JSON and the bytes of its binary chunk (empty when it has none). */
export interface GLBContents {
  json: Record<string, unknown>
  bin: Uint8Array
}

/** The 12-byte header, the JSON chunk (space-padded) and the binary chunk (zero-padded). */
export function packGLB(json: object, bin: Uint8Array): Uint8Array {
  const text = new TextEncoder().encode(JSON.stringify(json))
  const jsonLength = Math.ceil(text.length / 4) * 4
  const binLength = Math.ceil(bin.length / 4) * 4
  const total = 12 + 8 + jsonLength + (bin.length > 0 ? 8 + binLength : 0)
  const out = new Uint8Array(total)
  const view = new DataView(out.buffer)
  view.setUint32(0, GLB_MAGIC, true)
  view.setUint32(4, 2, true)
  view.setUint32(8, total, true)
  view.setUint32(12, jsonLength, true)
  view.setUint32(16, CHUNK_JSON, true)
  out.set(text, 20)
  out.fill(0x20, 20 + text.length, 20 + jsonLength)
  if (bin.length > 0) {
    const at = 20 + jsonLength
    view.setUint32(at, binLength, true)
    view.setUint32(at + 4, CHUNK_BIN, true)
    out.set(bin, at + 8)
  }
  return out
}

/** Splits a `.glb` into its JSON and binary chunk, checking every length against the data. */
export function readGLB(data: ArrayBuffer | Uint8Array, options: { name?: string } = {}): GLBContents {
  const bytes = toBytes(data, options.name)
  const fail = (code: 'BAD_MAGIC' | 'BAD_VERSION' | 'TRUNCATED' | 'OUT_OF_RANGE', message: string, offset: number): never => {
    throw new MD2Error(code, message, { section: 'glb', offset, file: options.name })
  }
  if (bytes.length < 20) fail('TRUNCATED', `${bytes.length} bytes: a .glb has at least a 12-byte header and one chunk header`, 0)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (view.getUint32(0, true) !== GLB_MAGIC) fail('BAD_MAGIC', 'not a binary glTF file (the first four bytes are not "glTF")', 0)
  if (view.getUint32(4, true) !== 2) fail('BAD_VERSION', `glTF binary version ${view.getUint32(4, true)}, expected 2`, 4)
  const total = Math.min(view.getUint32(8, true), bytes.length)
  let json: Record<string, unknown> | undefined
  let bin: Uint8Array = new Uint8Array(0)
  for (let at = 12; at + 8 <= total;) {
    const length = view.getUint32(at, true)
    const type = view.getUint32(at + 4, true)
    if (at + 8 + length > total) fail('TRUNCATED', `chunk of ${length} bytes runs past the end of the file (${total} bytes)`, at)
    const chunk = bytes.subarray(at + 8, at + 8 + length)
    if (type === CHUNK_JSON && json === undefined) {
      try {
        json = JSON.parse(new TextDecoder().decode(chunk)) as Record<string, unknown>
      } catch (error) {
        fail('OUT_OF_RANGE', `the JSON chunk does not parse (${error instanceof Error ? error.message : String(error)})`, at + 8)
      }
    } else if (type === CHUNK_BIN && bin.length === 0) bin = chunk
    at += 8 + length
  }
  if (json === undefined || typeof json !== 'object' || json === null) return fail('TRUNCATED', 'no JSON chunk', 12)
  return { json, bin }
}
