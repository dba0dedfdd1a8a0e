/**
 * Test-side helpers to read and damage MD2 bytes independently of the parser under test.
 */

// The field order is a fact of the format (stated once in spec.ts); the reading below is the test's own.
import { HEADER_FIELDS, type HeaderField } from '../../src/core/format/spec'
export { HEADER_FIELDS, type HeaderField }

/** Reads the 17 header ints with a DataView (no parser code involved). */
export function rawHeader(bytes: Uint8Array): Record<HeaderField, number> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const header = {} as Record<HeaderField, number>
  HEADER_FIELDS.forEach((field, i) => {
    header[field] = view.getInt32(i * 4, true)
  })
  return header
}

/** A copy of `bytes` with one header field replaced. */
export function withHeader(bytes: Uint8Array, changes: Partial<Record<HeaderField, number>>): Uint8Array {
  const copy = bytes.slice()
  const view = new DataView(copy.buffer)
  for (const [field, value] of Object.entries(changes)) {
    view.setInt32(HEADER_FIELDS.indexOf(field as HeaderField) * 4, value!, true)
  }
  return copy
}

/** A copy with an int32/uint16/float32/byte written at `offset`. */
export function patch(bytes: Uint8Array, offset: number, value: number, type: 'int32' | 'uint16' | 'float32' | 'uint8'): Uint8Array {
  const copy = bytes.slice()
  const view = new DataView(copy.buffer)
  if (type === 'int32') view.setInt32(offset, value, true)
  else if (type === 'uint16') view.setUint16(offset, value, true)
  else if (type === 'float32') view.setFloat32(offset, value, true)
  else view.setUint8(offset, value)
  return copy
}

/** Vertex `v` of frame `f` decoded by hand from the bytes: [x, y, z] = v·scale + translate. */
export function rawVertex(bytes: Uint8Array, f: number, v: number): [number, number, number] {
  const header = rawHeader(bytes)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const base = header.offsetFrames + f * header.frameSize
  const out: number[] = []
  for (let k = 0; k < 3; k++) {
    const scale = view.getFloat32(base + k * 4, true)
    const translate = view.getFloat32(base + 12 + k * 4, true)
    out.push(view.getUint8(base + 40 + v * 4 + k) * scale + translate)
  }
  return out as [number, number, number]
}
